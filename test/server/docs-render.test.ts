/**
 * How a docs page is rendered and searched: heading slugs and the contents list, the markdown
 * renderer's headings and code blocks, Shiki's highlighting, and the search index and matching.
 */
import { describe, expect, test } from 'vitest';
import { GET } from '../../src/app/api/docs-search/route';
import { loadHighlighter } from '../../src/lib/docs-highlight.server';
import { plainCode, renderMarkdown, sectionsOf } from '../../src/lib/docs-markdown.server';
import { contentsOf, createSlugger, slugify } from '../../src/lib/docs-outline';
import { searchDocs } from '../../src/lib/docs-search';
import { readDocsPage, readDocsSearchIndex } from '../../src/lib/docs.server';
import type { DocsHeading, DocsSearchEntry } from '../../src/lib/types';

/** A highlighter's first use compiles its grammars: seconds on a busy machine. */
const HIGHLIGHT_TIMEOUT = 60_000;

test.each([
  ['Parallel slots', 'parallel-slots'],
  ['Links: Href', 'links-href'],
  ['Errors, redirects and "try again"', 'errors-redirects-and-try-again'],
  ['The rules (15 minutes)', 'the-rules-15-minutes'],
  ["Where a route handler's file may be", 'where-a-route-handlers-file-may-be'],
  ['  Spaces   inside  ', 'spaces-inside'],
  ['Déjà vu', 'déjà-vu'],
  ['!!!', ''],
])('slugify(%j) is %j', (text, slug) => {
  expect(slugify(text)).toBe(slug);
});

test('a page never gives two headings one id, nor one its pictures or the layout use', () => {
  const slug = createSlugger(['main', 'status']);
  expect(['Status', 'Status', 'Main', 'Status', '!!!', '?'].map(slug)).toEqual([
    'status-1',
    'status-2',
    'main-1',
    'status-3',
    'section',
    'section-1',
  ]);
});

describe('contentsOf', () => {
  const h = (depth: DocsHeading['depth'], id: string): DocsHeading => ({ id, text: id, depth });
  test('a page of three sections lists none, whatever its subsections', () => {
    expect(contentsOf([h(2, 'a'), h(3, 'a1'), h(3, 'a2'), h(2, 'b'), h(2, 'c')])).toEqual([]);
  });
  test('a page of four sections lists them with their subsections, not deeper', () => {
    const headings = [h(2, 'a'), h(3, 'a1'), h(4, 'a1x'), h(2, 'b'), h(2, 'c'), h(2, 'd')];
    expect(contentsOf(headings).map((x) => x.id)).toEqual(['a', 'a1', 'b', 'c', 'd']);
  });
});

describe('renderMarkdown', () => {
  const source = [
    '# Title',
    '',
    'Intro with <b>markup</b> &amp; an entity.',
    '',
    '## One `code` heading',
    '',
    '```tsx',
    'const a = <A />;',
    '```',
    '',
    '### See [routing](/docs/routing)',
    '',
    '## One `code` heading',
    '',
    '<svg id="one-code-heading-1"><title>A picture</title></svg>',
    '',
    '# A second h1',
    '',
    '##### Deep',
  ].join('\n');
  const rendered = renderMarkdown(source, plainCode);

  test('the title is left out; h2 to h4 get a unique id and a link to themselves', () => {
    expect(rendered.html).not.toContain('<h1>Title</h1>');
    expect(rendered.html).toContain('<h1>A second h1</h1>');
    expect(rendered.headings).toEqual([
      { id: 'one-code-heading', text: 'One code heading', depth: 2 },
      { id: 'see-routing', text: 'See routing', depth: 3 },
      // The picture holds `one-code-heading-1` already.
      { id: 'one-code-heading-2', text: 'One code heading', depth: 2 },
    ]);
    expect(rendered.html).toContain(
      '<h2 id="one-code-heading"><a class="heading-link" href="#one-code-heading">One <code>code</code> heading</a></h2>',
    );
    // A link cannot hold a link: the heading's own text only.
    expect(rendered.html).toContain(
      '<h3 id="see-routing"><a class="heading-link" href="#see-routing">See routing</a></h3>',
    );
    expect(rendered.html).toContain('<h5>Deep</h5>');
  });

  test('a code block is a focusable, labelled <pre>, its text escaped', () => {
    expect(rendered.html).toContain(
      '<pre class="code" tabindex="0" role="group" aria-label="TSX code"><code>const a = &lt;A /&gt;;</code></pre>',
    );
  });

  test('sections: the prose under each heading, without code, pictures or tags', () => {
    expect(sectionsOf(rendered)).toEqual([
      { text: 'Intro with markup & an entity.' },
      { heading: rendered.headings[0], text: '' },
      { heading: rendered.headings[1], text: '' },
      { heading: rendered.headings[2], text: 'A second h1 Deep' },
    ]);
  });
});

describe('highlighting', () => {
  test(
    'tokens become classed spans, neighbours of a kind share one, and the text stays escaped',
    async () => {
      const render = await loadHighlighter();
      const html = render('export default function A() {\n  return <b>{"x & y"}</b>; // done\n}', 'tsx');
      expect(html).toMatch(/^<pre class="code" tabindex="0" role="group" aria-label="TSX code"><code>/);
      expect(html).toContain('<span class="tok-keyword">export default function </span>');
      expect(html).toContain('<span class="tok-function">A</span>');
      expect(html).toContain('<span class="tok-comment">// done</span>');
      expect(html).toContain('&amp;');
      expect(html).not.toMatch(/style=|<b>/);
      // Punctuation is plain text: no span of its own.
      expect(html).not.toContain('tok-punctuation');
    },
    HIGHLIGHT_TIMEOUT,
  );

  test('a language not loaded is shown plain, escaped', async () => {
    const render = await loadHighlighter();
    expect(render('<x> & y', 'cobol')).toBe(
      '<pre class="code" tabindex="0" role="group" aria-label="Code"><code>&lt;x&gt; &amp; y</code></pre>\n',
    );
  });
});

describe('the search index', () => {
  test(
    'lists every page and every section, each linking to a heading the page has',
    async () => {
      const index = await readDocsSearchIndex();
      const routing = index.filter((entry) => entry.href.startsWith('/docs/routing'));
      expect(routing[0]).toMatchObject({ href: '/docs/routing', page: 'Routing' });
      expect(routing.map((entry) => entry.heading)).toContain('Parallel slots');
      const page = await readDocsPage(['routing']);
      for (const { href } of routing.slice(1)) expect(page!.html).toContain(`id="${href.split('#')[1]}"`);
      expect(index.every((entry) => entry.text.length <= 201)).toBe(true);
      // Text, not markup: `<Link>` in the prose is the words it shows.
      expect(index.some((entry) => /<\/|&lt;|&amp;/.test(entry.text))).toBe(false);
      expect(index.find((entry) => entry.href === '/docs/navigation')?.text).toMatch(
        /^Every <Link> is a real <a href>/,
      );
    },
    HIGHLIGHT_TIMEOUT,
  );

  test('is served as JSON that browsers may keep a few minutes', async () => {
    const response = await GET(new Request('http://localhost/api/docs-search'), { params: {} } as never);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await response.json()).toEqual(await readDocsSearchIndex());
  });
});

describe('searchDocs', () => {
  const entries: DocsSearchEntry[] = [
    { href: '/docs/a', page: 'Alpha', text: 'About slots and layouts.' },
    { href: '/docs/a#slots', page: 'Alpha', heading: 'Parallel slots', text: 'A slot renders beside.' },
    { href: '/docs/b', page: 'Beta', text: 'Nothing here.' },
    { href: '/docs/b#layouts', page: 'Beta', heading: 'Layouts', text: 'Slots keep layouts.' },
  ];
  const hrefs = (query: string, max?: number) => searchDocs(entries, query, max).map((entry) => entry.href);

  test.each([
    ['', []],
    ['   ', []],
    ['nothing matches', []],
    // A word in a heading counts most; ties keep the index's order.
    ['slots', ['/docs/a#slots', '/docs/a', '/docs/b#layouts']],
    ['SLOTS layouts', ['/docs/b#layouts', '/docs/a']],
    ['beta', ['/docs/b', '/docs/b#layouts']],
  ])('%j finds %j', (query, expected) => {
    expect(hrefs(query)).toEqual(expected);
  });

  test('at most max results', () => {
    expect(hrefs('a', 2)).toHaveLength(2);
  });
});
