import { href, Link, type Head, type HeadArgs, type PageProps } from 'switchyard-react';
import { DocsSearch } from '../../../components/docs-search';
import type { DocsPageData } from '../../../lib/types';

export function head({ data }: HeadArgs<DocsPageData>): Head {
  return { title: `${data.title} · Switchyard docs` };
}

/**
 * A docs page: the search box and the list of pages beside the text (on a phone, the list folds
 * behind one control), the page's sections on top when it has many, and the pages before and
 * after it in the docs' order at the bottom.
 */
export default function DocsPage({ params, data }: PageProps<'/docs/[[...slug]]'>) {
  const current = href('/docs/[[...slug]]', { slug: params.slug });
  const at = data.nav.findIndex((item) => item.href === current);
  const previous = at > 0 ? data.nav[at - 1] : undefined;
  const next = at >= 0 ? data.nav[at + 1] : undefined;
  return (
    <div className="docs">
      <div className="docs-side">
        <DocsSearch />
        {/* Closed, it shows its list anyway from tablet width up (see styles.css). */}
        <details className="docs-pages">
          <summary>Pages</summary>
          <nav aria-label="Documentation" className="docs-nav" data-scroll-restore="docs-nav">
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
        </details>
      </div>
      <div className="docs-body">
        <article className="prose">
          <h1>{data.title}</h1>
          {data.contents.length > 0 ? (
            <nav aria-labelledby="docs-contents-title" className="docs-contents">
              <p id="docs-contents-title" className="docs-contents-title">
                On this page
              </p>
              <ul>
                {data.contents.map((heading) => (
                  <li key={heading.id} className={heading.depth === 3 ? 'docs-contents-sub' : undefined}>
                    <a href={`#${heading.id}`}>{heading.text}</a>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          {/* Rendered from the repo's own markdown files, which are trusted content. */}
          <div dangerouslySetInnerHTML={{ __html: data.html }} />
        </article>
        {previous || next ? (
          <nav aria-label="Previous and next page" className="docs-pager">
            {previous ? (
              <Link href={previous.href} rel="prev" className="docs-pager-prev">
                <span className="docs-pager-label">Previous</span> {previous.title}
              </Link>
            ) : null}
            {next ? (
              <Link href={next.href} rel="next" className="docs-pager-next">
                <span className="docs-pager-label">Next</span> {next.title}
              </Link>
            ) : null}
          </nav>
        ) : null}
      </div>
    </div>
  );
}
