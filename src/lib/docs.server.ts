/**
 * The docs pages and search index, as the app's routes read them. The build made them (see
 * `docs-plugin.ts`); this only checks the URL: a slug segment must match `[a-z0-9-]+`, so no
 * URL can name a file outside `docs/`, and `/docs/index` is not a second URL of `/docs`.
 */
import { docsNav, docsPage, docsSearchIndex } from 'virtual:docs';
import { DOCS_SEGMENT } from './docs-source.server';
import type { DocsPageData, DocsSearchEntry } from './types';

/** The page at `slug`, or undefined when the slug is malformed or names no page. */
export async function readDocsPage(slug: readonly string[]): Promise<DocsPageData | undefined> {
  if (!slug.every((segment) => DOCS_SEGMENT.test(segment)) || slug.join('/') === 'index') return undefined;
  const page = await docsPage(slug.length === 0 ? '/docs' : `/docs/${slug.join('/')}`);
  return page && { ...page, nav: await docsNav() };
}

/** Every page and every section of it, with the start of its prose. */
export function readDocsSearchIndex(): Promise<DocsSearchEntry[]> {
  return docsSearchIndex();
}
