/**
 * The docs as a whole: every page is in the index's table of contents, every link between pages
 * lands on a page, every picture is inline SVG that markdown left alone and that has a text
 * alternative, and the reading guide names files that exist.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { plainCode, renderMarkdown } from '../../src/lib/docs-markdown.server';
import { readDocsPage } from '../../src/lib/docs.server';

const root = path.resolve(import.meta.dirname, '../..');
const docsDir = path.join(root, 'docs');
const names = readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.slice(0, -'.md'.length).split(path.sep).join('/'))
  .sort();
const source = (name: string) => readFileSync(path.join(docsDir, `${name}.md`), 'utf8');
const slugOf = (name: string) => (name === 'index' ? [] : name.split('/'));

/** A page's first highlighting compiles its languages' grammars: seconds on a busy machine. */
const RENDER_TIMEOUT = 60_000;
/** The pages drawn with pictures, and how many each holds. */
const FIGURES = { navigation: 3, 'prefetch-cache': 3, monitoring: 1 } as const;
test('the index links every other page, so the docs nav lists each in a chosen place', () => {
  const linked = new Set([...source('index').matchAll(/\]\(\/docs\/([a-z0-9/-]+)\)/g)].map((m) => m[1]));
  expect(names.filter((name) => name !== 'index' && !linked.has(name))).toEqual([]);
});

test('every /docs link in the docs names a page that exists', () => {
  const broken = names.flatMap((name) =>
    [...source(name).matchAll(/\]\(\/docs\/?([a-z0-9/-]*)(#[^)]*)?\)/g)]
      .map((m) => m[1] || 'index')
      .filter((target) => !names.includes(target))
      .map((target) => `${name} → ${target}`),
  );
  expect(broken).toEqual([]);
});

describe.each(Object.entries(FIGURES))('/docs/%s', (name, count) => {
  test(
    `renders its ${count} pictures as SVG with a title and a description`,
    async () => {
      const page = await readDocsPage(slugOf(name));
      const html = page!.html;
      // marked passes HTML blocks through: an escaped tag would show as text.
      expect(html).not.toMatch(/&lt;(svg|rect|path|text|figure)\b/);
      const svgs = [...html.matchAll(/<svg\b([^>]*)>([\s\S]*?)<\/svg>/g)];
      expect(svgs).toHaveLength(count);
      for (const [, attributes, body] of svgs) {
        expect(attributes).toContain('role="img"');
        const labelledBy = /aria-labelledby="([^"]+)"/.exec(attributes!)?.[1]?.split(' ') ?? [];
        expect(labelledBy).toHaveLength(2);
        const [titleId, descId] = labelledBy;
        expect(body).toMatch(new RegExp(`^\\s*<title id="${titleId}">[^<]+</title>`));
        expect(body).toMatch(new RegExp(`<desc id="${descId}">[^<]{40,}</desc>`));
      }
      // Ids are global to the document: two figures on one page must not share one.
      const ids = [...html.matchAll(/\bid="([^"]+)"/g)].map((m) => m[1]);
      expect(new Set(ids).size).toBe(ids.length);
    },
    RENDER_TIMEOUT,
  );
});

test('every heading of every page has an id of its own and a link to itself', () => {
  for (const name of names) {
    const { html } = renderMarkdown(source(name), plainCode);
    const headings = [...html.matchAll(/<h([2-4])([^>]*)>(.*?)<\/h\1>/g)];
    expect(headings.length, name).toBeGreaterThan(0);
    for (const [heading, , attributes, inner] of headings) {
      const id = /^ id="([^"]+)"$/.exec(attributes!)?.[1];
      expect(id, heading).toBeTruthy();
      expect(inner, heading).toMatch(new RegExp(`^<a class="heading-link" href="#${id}">.+</a>$`));
    }
    // The page around the markdown holds these; an id in a code block's text is no attribute.
    const ids = [
      'main',
      'docs-contents-title',
      ...[...html.matchAll(/<[^>]*?\bid="([^"]+)"/g)].map((m) => m[1]),
    ];
    expect(new Set(ids).size, name).toBe(ids.length);
  }
});

test('the reading guide names only files that exist', () => {
  const files = [...source('reading-guide').matchAll(/`((?:shared|client|server|src|test)\/[\w./-]+)`/g)].map(
    (m) => m[1]!,
  );
  expect(files.length).toBeGreaterThan(15);
  expect(files.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
});
