/**
 * The framework's documentation, made from its markdown: one file per page under the repo's
 * `docs/` folder, `docs/index.md` at `/docs` and `docs/a/b.md` at `/docs/a/b`. Only names of
 * `[a-z0-9-]+` segments are pages, so no URL can name a file outside `docs/`. Markdown is
 * trusted repo content. The build runs these once, for every page (see `docs-plugin.ts`);
 * development runs them per request, so that an edit shows on reload.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { plainCode, renderMarkdown, sectionsOf } from './docs-markdown.server.ts';
import { contentsOf } from './docs-outline.ts';
import type { DocsNavItem, DocsPageData, DocsSearchEntry } from './types';

/** A page as made once: everything but the nav, which all pages share. */
export type DocsPage = Omit<DocsPageData, 'nav'>;

/** Every page, the nav and the search index: what the build puts in the server bundle. */
export interface BuiltDocs {
  pages: Record<string, DocsPage>;
  nav: DocsNavItem[];
  search: DocsSearchEntry[];
}

export const DOCS_SEGMENT = /^[a-z0-9-]+$/;
/** How much of a section's prose the search index keeps. */
const SNIPPET_CHARS = 200;

/** Every page highlighted, the nav and the search index of the docs in `dir`. */
export async function buildDocs(dir: string): Promise<BuiltDocs> {
  const nav = await listDocsPages(dir);
  const pages: Record<string, DocsPage> = {};
  for (const item of nav) pages[item.href] = (await renderDocsPage(dir, item.href))!;
  return { pages, nav, search: await buildSearchIndex(dir, nav) };
}

/** The page at `href` (`/docs`, `/docs/a/b`), highlighted; undefined when no file has that name. */
export async function renderDocsPage(dir: string, href: string): Promise<DocsPage | undefined> {
  const name = nameOf(href);
  const source = await readSource(dir, name);
  if (source === undefined) return undefined;
  // Imported on first use: the highlighter's grammars cost nothing until a page is made.
  const { loadHighlighter } = await import('./docs-highlight.server.ts');
  const { html, headings } = renderMarkdown(source, await loadHighlighter());
  return { title: titleOf(source, name), html, contents: contentsOf(headings) };
}

/**
 * The search index: every page and every section of it, with the start of its prose, made from
 * the sources without highlighting (code is not searched). The search box fetches it when it
 * first takes focus.
 */
export async function buildSearchIndex(dir: string, nav: readonly DocsNavItem[]): Promise<DocsSearchEntry[]> {
  const entries: DocsSearchEntry[] = [];
  for (const item of nav) {
    const source = (await readSource(dir, nameOf(item.href))) ?? '';
    for (const { heading, text } of sectionsOf(renderMarkdown(source, plainCode))) {
      entries.push({
        href: heading ? `${item.href}#${heading.id}` : item.href,
        page: item.title,
        ...(heading ? { heading: heading.text } : {}),
        text: snippetOf(text),
      });
    }
  }
  return entries;
}

/** The first words of `text`, cut at a word, at most `SNIPPET_CHARS` long. */
function snippetOf(text: string): string {
  if (text.length <= SNIPPET_CHARS) return text;
  const cut = text.slice(0, SNIPPET_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${space > 0 ? cut.slice(0, space) : cut}…`;
}

/** The file name (without `.md`) of a page's href: `index` for `/docs`. */
function nameOf(href: string): string {
  return href === '/docs' ? 'index' : href.slice('/docs/'.length);
}

function readSource(dir: string, name: string): Promise<string | undefined> {
  return readFile(path.join(dir, `${name}.md`), 'utf8').catch(() => undefined);
}

/** The first `# Heading`, or the file's last name segment when it has none. */
function titleOf(source: string, name: string): string {
  return (
    /^#\s+(.+)$/m.exec(source)?.[1]?.trim() ?? (name === 'index' ? 'Documentation' : name.split('/').at(-1)!)
  );
}

/**
 * Every reachable page, ordered: the index first, then pages in the order the index links to
 * them, then the rest by path. The index is the table of contents, so it decides the order.
 */
export async function listDocsPages(dir: string): Promise<DocsNavItem[]> {
  const files = await readdir(dir, { recursive: true });
  const names = files
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.slice(0, -'.md'.length))
    .filter((name) => name.split('/').every((segment) => DOCS_SEGMENT.test(segment)))
    .sort();
  const index = (await readSource(dir, 'index')) ?? '';
  const linked = [...index.matchAll(/\]\(\/docs\/([a-z0-9/-]+)\)/g)].map((match) => match[1]);
  const rank = (name: string) => {
    if (name === 'index') return -1;
    const at = linked.indexOf(name);
    return at === -1 ? linked.length : at;
  };
  names.sort((a, b) => rank(a) - rank(b));
  return Promise.all(
    names.map(async (name) => {
      const source = (await readSource(dir, name)) ?? '';
      return { href: name === 'index' ? '/docs' : `/docs/${name}`, title: titleOf(source, name) };
    }),
  );
}
