/**
 * The framework's documentation: one markdown file per page under the repo's `docs/` folder.
 * `[]` is `docs/index.md`, `['a', 'b']` is `docs/a/b.md`. A slug segment must match
 * `[a-z0-9-]+`, so no URL can name a file outside `docs/`. Markdown is trusted repo content.
 * Rendering (highlighting included) happens on a page's first request, never at server start.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { plainCode, renderMarkdown, sectionsOf } from './docs-markdown.server';
import { contentsOf } from './docs-outline';
import type { DocsNavItem, DocsPageData, DocsSearchEntry } from './types';

const DOCS_DIR = path.resolve(process.cwd(), 'docs');
const SEGMENT = /^[a-z0-9-]+$/;
// In production the files cannot change, so each is read and rendered once; in development they
// are read per request so that edits show on reload. Only pages that exist are kept: the cache
// holds at most one entry per file in `docs/`, whatever names clients make up, plus one index.
const CACHE = process.env.NODE_ENV === 'production';
const pages = new Map<string, Promise<DocsPageData | undefined>>();
let nav: Promise<DocsNavItem[]> | undefined;
let searchIndex: Promise<DocsSearchEntry[]> | undefined;
/** How much of a section's prose the search index keeps. */
const SNIPPET_CHARS = 200;

/** The page at `slug`, or undefined when the slug is malformed or names no file. */
export async function readDocsPage(slug: readonly string[]): Promise<DocsPageData | undefined> {
  // `/docs/index` would duplicate `/docs`; one URL per page.
  if (!slug.every((segment) => SEGMENT.test(segment)) || slug.join('/') === 'index') return undefined;
  const href = slug.length === 0 ? '/docs' : `/docs/${slug.join('/')}`;
  if (!CACHE) return renderPage(slug);
  if (!(await listPages()).some((item) => item.href === href)) return undefined;
  let page = pages.get(href);
  if (!page) {
    page = renderPage(slug);
    pages.set(href, page);
    // A failure is not kept: the next request tries again.
    page.catch(() => pages.delete(href));
  }
  return page;
}

/**
 * The search index: every page and every section of it, with the start of its prose. Built
 * once from the sources without highlighting (code is not searched), so it costs a few
 * milliseconds, not every page's highlighting; fetched by the search box when it takes focus.
 */
export function readDocsSearchIndex(): Promise<DocsSearchEntry[]> {
  if (searchIndex) return searchIndex;
  const pending = buildSearchIndex();
  if (CACHE) searchIndex = pending;
  return pending;
}

async function buildSearchIndex(): Promise<DocsSearchEntry[]> {
  const entries: DocsSearchEntry[] = [];
  for (const item of await listPages()) {
    const source =
      (await readSource(item.href === '/docs' ? 'index' : item.href.slice('/docs/'.length))) ?? '';
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

/** How many pages the cache holds: for tests. */
export function cachedDocsPages(): number {
  return pages.size;
}

async function renderPage(slug: readonly string[]): Promise<DocsPageData | undefined> {
  const source = await readSource(slug.length === 0 ? 'index' : slug.join('/'));
  if (source === undefined) return undefined;
  // Loaded on the first page's request: the highlighter's grammars cost nothing at start.
  const { loadHighlighter } = await import('./docs-highlight.server');
  const { html, headings } = renderMarkdown(source, await loadHighlighter());
  return { title: titleOf(source, slug), html, contents: contentsOf(headings), nav: await listPages() };
}

function readSource(name: string): Promise<string | undefined> {
  return readFile(path.join(DOCS_DIR, `${name}.md`), 'utf8').catch(() => undefined);
}

/** The first `# Heading`, or the last slug segment when the file has none. */
function titleOf(source: string, slug: readonly string[]): string {
  return /^#\s+(.+)$/m.exec(source)?.[1]?.trim() ?? slug.at(-1) ?? 'Documentation';
}

function listPages(): Promise<DocsNavItem[]> {
  if (nav) return nav;
  const pending = scanPages();
  if (CACHE) nav = pending;
  return pending;
}

/**
 * Every reachable page, ordered: the index first, then pages in the order the index links to
 * them, then the rest by path. The index is the table of contents, so it decides the order.
 */
async function scanPages(): Promise<DocsNavItem[]> {
  const files = await readdir(DOCS_DIR, { recursive: true });
  const names = files
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.slice(0, -'.md'.length))
    .filter((name) => name.split('/').every((segment) => SEGMENT.test(segment)))
    .sort();
  const index = (await readSource('index')) ?? '';
  const linked = [...index.matchAll(/\]\(\/docs\/([a-z0-9/-]+)\)/g)].map((match) => match[1]);
  const rank = (name: string) => {
    if (name === 'index') return -1;
    const at = linked.indexOf(name);
    return at === -1 ? linked.length : at;
  };
  names.sort((a, b) => rank(a) - rank(b));
  return Promise.all(
    names.map(async (name) => {
      const slug = name === 'index' ? [] : name.split('/');
      const source = (await readSource(name)) ?? '';
      return { href: slug.length === 0 ? '/docs' : `/docs/${name}`, title: titleOf(source, slug) };
    }),
  );
}
