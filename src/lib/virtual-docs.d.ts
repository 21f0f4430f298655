/** The docs module the demo's Vite plugin makes (`docs-plugin.ts`). */
declare module 'virtual:docs' {
  type DocsPage = import('./docs-source.server').DocsPage;
  type DocsNavItem = import('./types').DocsNavItem;
  type DocsSearchEntry = import('./types').DocsSearchEntry;

  /** The page at `href` (`/docs`, `/docs/a/b`), or undefined when there is none. */
  export function docsPage(href: string): Promise<DocsPage | undefined>;
  export function docsNav(): Promise<DocsNavItem[]>;
  export function docsSearchIndex(): Promise<DocsSearchEntry[]>;
}
