import { href, Link, type Head, type HeadArgs, type PageProps } from 'switchyard-react';
import type { DocsPageData } from '../../../lib/types';

export function head({ data }: HeadArgs<DocsPageData>): Head {
  return { title: `${data.title} · Switchyard docs` };
}

export default function DocsPage({ params, data }: PageProps<'/docs/[[...slug]]'>) {
  const current = href('/docs/[[...slug]]', { slug: params.slug });
  return (
    <>
      <div className="docs">
        <nav aria-label="Documentation" className="docs-nav">
          <ul>
            {data.nav.map((item) => (
              <li key={item.href}>
                <Link href={item.href} aria-current={item.href === current ? 'page' : undefined}>
                  {item.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {/* Rendered from the repo's own markdown files, which are trusted content. */}
        <article className="prose" dangerouslySetInnerHTML={{ __html: data.html }} />
      </div>
    </>
  );
}
