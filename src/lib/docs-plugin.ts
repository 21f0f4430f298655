/**
 * The docs as a module of the server build: `import { docsPage } from 'virtual:docs'`. Building
 * the app makes every page once, highlighted, with the nav and the search index, and puts them in
 * the server bundle as data: a deployed server never runs the highlighter or reads `docs/`.
 * Development makes a page when it is asked for, from the files as they are, so an edit shows on
 * reload. The browser build may not import it: the docs reach the browser as page data.
 *
 * The app's Vite config imports this file, so it and what it imports name their files with
 * their `.ts` extensions, as Vite asks of a config's imports.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { buildDocs } from './docs-source.server.ts';

const ID = 'virtual:docs';
const RESOLVED = `\0${ID}`;
const SOURCE = fileURLToPath(new URL('./docs-source.server.ts', import.meta.url));

/** The plugin; `dir` is the docs folder, `docs/` of the project root by default. */
export function docsPlugin(dir?: string): Plugin {
  let docsDir = '';
  let building = false;
  return {
    name: 'demo:docs',
    configResolved(config) {
      docsDir = dir ?? path.join(config.root, 'docs');
      building = config.command === 'build';
    },
    resolveId(id) {
      return id === ID ? RESOLVED : undefined;
    },
    async load(id) {
      if (id !== RESOLVED) return undefined;
      if (this.environment?.config.consumer === 'client')
        throw new Error(`${ID} is for the server: the browser gets the docs as page data`);
      const dirLiteral = JSON.stringify(docsDir);
      if (!building) {
        return [
          `import { buildSearchIndex, listDocsPages, renderDocsPage } from ${JSON.stringify(SOURCE)};`,
          `export const docsPage = (href) => renderDocsPage(${dirLiteral}, href);`,
          `export const docsNav = () => listDocsPages(${dirLiteral});`,
          `export const docsSearchIndex = async () => buildSearchIndex(${dirLiteral}, await listDocsPages(${dirLiteral}));`,
        ].join('\n');
      }
      const built = await buildDocs(docsDir);
      // JSON.parse of one string is quicker to load than the same data as an object literal.
      return [
        `const built = JSON.parse(${JSON.stringify(JSON.stringify(built))});`,
        'export const docsPage = async (href) => (Object.hasOwn(built.pages, href) ? built.pages[href] : undefined);',
        'export const docsNav = async () => built.nav;',
        'export const docsSearchIndex = async () => built.search;',
      ].join('\n');
    },
  };
}
