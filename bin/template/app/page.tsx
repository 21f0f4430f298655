import { href, Link, type PageProps } from 'switchyard-react';
import type { HomeData } from './page.server';

export default function HomePage({ data }: PageProps<Record<string, never>, HomeData>) {
  return (
    <>
      <title>My app</title>
      <h1>Welcome</h1>
      <p>
        Edit <code>app/page.tsx</code> and save: the page updates in place.
      </p>
      <h2>Items</h2>
      <ul>
        {data.items.map((item) => (
          <li key={item.id}>
            <Link href={href('/items/[id]', { id: item.id })}>{item.name}</Link>
          </li>
        ))}
      </ul>
      <p>
        <Link href="/items/999">An item that does not exist</Link> shows <code>app/not-found.tsx</code>.
      </p>
    </>
  );
}
