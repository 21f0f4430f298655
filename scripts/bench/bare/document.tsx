/** The bare server's whole document: the bench page's tree with plain anchors. */
import { ItemList, Nav, type ItemsData } from '../items';

function Anchor({ href, children }: { href: string; children?: React.ReactNode }) {
  return <a href={href}>{children}</a>;
}

export function Document({ data }: { data: ItemsData }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>Items</title>
        <link rel="icon" href="data:," />
      </head>
      <body>
        <Nav LinkAs={Anchor} />
        <main>
          <ItemList data={data} LinkAs={Anchor} />
        </main>
      </body>
    </html>
  );
}
