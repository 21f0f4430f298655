/**
 * The demo's docs module as the build makes it: every page highlighted once, with the nav and
 * the search index, as data in the server bundle; a name that is no page finds nothing, and the
 * browser build may not import it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { docsPlugin } from '../../src/lib/docs-plugin';
import type { DocsPage } from '../../src/lib/docs-source.server';
import type { DocsNavItem, DocsSearchEntry } from '../../src/lib/types';

const root = path.resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'docs-build-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface DocsModule {
  docsPage(href: string): Promise<DocsPage | undefined>;
  docsNav(): Promise<DocsNavItem[]>;
  docsSearchIndex(): Promise<DocsSearchEntry[]>;
}

/** The module's code as the plugin gives it to one environment of a build. */
async function load(consumer: 'client' | 'server'): Promise<string> {
  const plugin = docsPlugin();
  (plugin.configResolved as (config: { root: string; command: string }) => void)({ root, command: 'build' });
  const resolved = (plugin.resolveId as (id: string) => string)('virtual:docs');
  const hook = plugin.load as (this: unknown, id: string) => Promise<string>;
  return hook.call({ environment: { config: { consumer } } }, resolved);
}

test('the build holds every page highlighted, the nav and the search index; names that are no page find nothing', async () => {
  const code = await load('server');
  // Data, not the highlighter: the bundle imports nothing.
  expect(code).not.toMatch(/^import /m);
  const file = path.join(scratch, 'docs.mjs');
  writeFileSync(file, code);
  const docs = (await import(pathToFileURL(file).href)) as DocsModule;
  const nav = await docs.docsNav();
  expect(nav[0]).toEqual({ href: '/docs', title: expect.any(String) });
  expect(nav.length).toBeGreaterThan(5);
  for (const { href, title } of nav) {
    const page = await docs.docsPage(href);
    expect(page?.title, href).toBe(title);
  }
  // Highlighted at build time: tokens are marked in the HTML.
  expect((await docs.docsPage('/docs/prefetch-cache'))?.html).toMatch(/class="tok-[a-z-]+"/);
  for (const name of ['/docs/missing', '/docs/constructor', '__proto__', 'toString', '/docs/'])
    expect(await docs.docsPage(name), name).toBeUndefined();
  const search = await docs.docsSearchIndex();
  expect(new Set(search.map((entry) => entry.page))).toEqual(new Set(nav.map((item) => item.title)));
}, 120_000);

test('the browser build may not import it', async () => {
  await expect(load('client')).rejects.toThrow(/for the server/);
});
