/**
 * Head tags in the document: each tag once, in `<head>`, merged root → leaf from the modules'
 * `head` exports, with their values escaped; a not-found and an error page name themselves.
 * Page data carries the page's tags ready made, and an intercepted route what it changes in them.
 */
import request from 'supertest';
import { expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import type { HeadTag } from '../../shared/head';
import { headApp } from './fixture-app';

function app() {
  const logger = { error: vi.fn(), info: vi.fn() };
  return { app: createApp({ modules: headApp, logger }), logger };
}

/** The document's `<head>`, and how many times each of `tags` occurs in the whole document. */
async function get(url: string) {
  const { app: server, logger } = app();
  const res = await request(server).get(url);
  const head = /<head>([\s\S]*?)<\/head>/.exec(res.text)?.[1] ?? '';
  const count = (pattern: RegExp) => res.text.match(new RegExp(pattern, 'g'))?.length ?? 0;
  return { res, head, count, logger };
}

test('a page carries each tag once, in <head>: the page over the layout, key by key', async () => {
  const { res, head, count } = await get('/items/1');
  expect(res.status).toBe(200);
  const expected = [
    '<title>Item one · Head fixture</title>',
    '<meta name="description" content="The first item."/>',
    '<link rel="canonical" href="/items/1"/>',
    '<meta name="robots" content="index, follow"/>',
    '<meta property="og:title" content="Item one"/>',
    '<meta property="og:image" content="/items/1/art"/>',
    '<meta property="og:type" content="article"/>',
    '<meta name="theme-color" content="#000000"/>',
    '<meta property="article:section" content="items"/>',
  ];
  for (const tag of expected) expect(head).toContain(tag);
  expect(count(/<title>/)).toBe(1);
  expect(count(/<meta name="description"/)).toBe(1);
  expect(count(/<link rel="canonical"/)).toBe(1);
  expect(count(/<meta name="robots"/)).toBe(1);
  expect(count(/<meta property="og:title"/)).toBe(1);
  expect(count(/<meta property="og:type"/)).toBe(1);
  expect(count(/<meta name="theme-color"/)).toBe(1);
});

test('a page without a head of its own has its layout’s', async () => {
  const { head, count } = await get('/');
  expect(head).toContain('<title>Head fixture</title>');
  expect(head).toContain('<meta name="description" content="The site."/>');
  expect(head).toContain('<meta property="og:type" content="website"/>');
  expect(head).toContain('<meta name="theme-color" content="#ffffff"/>');
  expect(count(/<link rel="canonical"/)).toBe(0);
  expect(count(/<title>/)).toBe(1);
});

test('values are escaped: a title or description cannot close its tag', async () => {
  const { res, head, count } = await get('/items/evil');
  expect(res.status).toBe(200);
  expect(head).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; · Head fixture</title>');
  expect(head).toContain(
    '<meta name="description" content="&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"/>',
  );
  expect(head).toContain(
    '<meta property="og:title" content="&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;"/>',
  );
  expect(res.text).not.toContain('<script>alert');
  expect(count(/<title>/)).toBe(1);
});

test('a not-found page names itself: its own title, the layout’s other tags, not indexed', async () => {
  for (const url of ['/no/such/page', '/items/2']) {
    const { res, head, count } = await get(url);
    expect(res.status).toBe(404);
    expect(head).toContain('<title>Not here</title>');
    expect(head).toContain('<meta name="robots" content="noindex"/>');
    expect(head).toContain('<meta name="description" content="The site."/>');
    expect(count(/<title>/)).toBe(1);
    expect(count(/<meta name="robots"/)).toBe(1);
  }
});

test('a caught loader error: the error page’s own title, not the page’s nor the layout’s', async () => {
  const { res, head, count } = await get('/caught');
  expect(res.status).toBe(500);
  expect(head).toContain('<title>Something went wrong</title>');
  expect(count(/<title>/)).toBe(1);
  expect(res.text).not.toContain('Never shown');
});

test('a page whose data streams: the head goes out with the shell, the new tags with the data', async () => {
  const { res, head, count } = await get('/slow');
  expect(res.status).toBe(200);
  expect(head).toContain('<title>Head fixture</title>');
  expect(head).not.toContain('Streamed in.');
  expect(count(/<title>/)).toBe(1);
  expect(count(/<meta name="description"/)).toBe(1);
  // The streamed data's script brings the page's tags as that data makes them, for the browser.
  const [, payload] = streamedPairs(res.text).find(([id]) => id === 'slow#pageData')!;
  expect(payload).toMatchObject({ value: { title: 'Slow page' } });
  const tags = Object.fromEntries(payload.head!.map((tag) => [tag.key, tag.text ?? tag.attributes.content]));
  expect(tags).toMatchObject({ title: 'Slow page', 'name:description': 'Streamed in.' });
});

/** The `[id, payload]` pairs a document's streamed scripts push. */
function streamedPairs(html: string): [string, { value?: unknown; head?: HeadTag[] }][] {
  return [...html.matchAll(/\.push\((\[.*?\])\)<\/script>/g)].map((m) => JSON.parse(m[1]!) as never);
}

test('a head of the wrong shape is the app’s error: a 500 whose log names the file and the key', async () => {
  const { res, logger } = await get('/broken');
  expect(res.status).toBe(500);
  expect(res.text).not.toContain('Broken');
  const logged = logger.error.mock.calls.map((call) => String(call[1]));
  expect(logged.some((error) => error.includes('broken/page.tsx: head() title must be a string'))).toBe(true);
});

/** What each tag of a head says, by its key. */
const said = (tags: HeadTag[] | undefined) =>
  Object.fromEntries(
    (tags ?? []).map((tag) => [tag.key, tag.text ?? tag.attributes.content ?? tag.attributes.href]),
  );

test('page data carries the page’s merged tags, the layouts’ too where their data is left out', async () => {
  const { app: server } = app();
  const res = await request(server).get('/items/1?_sy=%2F');
  expect(res.status).toBe(200);
  // The client holds the root layout's data: it is not sent, and its head is still in the tags.
  expect(res.body.segments[0]).toMatchObject({ reuseLayoutData: true });
  expect(res.body.segments[0].layoutData).toBeUndefined();
  expect(said(res.body.head)).toEqual({
    title: 'Item one · Head fixture',
    'name:description': 'The first item.',
    canonical: '/items/1',
    'name:robots': 'index, follow',
    'property:og:title': 'Item one',
    'property:og:image': '/items/1/art',
    'property:og:type': 'article',
    'name:theme-color': '#000000',
    'property:article:section': 'items',
  });
  // A prefetch down to the loading state: the tags of what it renders, the layout's.
  const partial = await request(server).get('/slow?_sy=%2F&_syp=auto');
  expect(partial.body.pendingAt).toBe(1);
  expect(said(partial.body.head)).toMatchObject({ title: 'Head fixture', 'name:description': 'The site.' });
  // What is inside it: the page's tags with its data.
  const rest = await request(server).get('/slow?_sy=%2F&_syp=rest');
  expect(said(rest.body.head)).toMatchObject({ title: 'Slow page', 'name:description': 'Streamed in.' });
});

test('not-found page data: the layouts’ tags without their title, not indexed', async () => {
  const { app: server } = app();
  const res = await request(server).get('/items/2?_sy=%2F');
  expect(res.status).toBe(404);
  expect(said(res.body.head)).toEqual({
    'name:description': 'The site.',
    'name:robots': 'noindex',
    'property:og:title': 'Head fixture',
    'property:og:type': 'website',
    'name:theme-color': '#ffffff',
  });
});

test('a head that fails on streamed data is logged with its file; the data still comes, the head stays', async () => {
  const { res, head, logger } = await get('/late-broken');
  expect(res.status).toBe(200);
  expect(head).toContain('<title>Head fixture</title>');
  const [, payload] = streamedPairs(res.text).find(([id]) => id === 'late-broken#pageData')!;
  expect(payload).toEqual({ value: { count: 3 } });
  const logged = logger.error.mock.calls.map((call) => String(call[1]));
  expect(logged.some((error) => error.includes('late-broken/page.tsx: head() title must be a string'))).toBe(
    true,
  );
});
