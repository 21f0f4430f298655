/**
 * The app's `public/` folder: which routes a public file hides (a table), and a real build of a
 * fixture app with one, served as production serves it: public files revalidate with a strong
 * `ETag` (a 304 with no body), each compressed twin has a tag of its own, and whatever is not
 * a file still reaches the pages.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildApp } from '../../server/build';
import { createApp } from '../../server/create-app';
import type { RouteModules } from '../../server/render/route-runtime';
import { shadowedRoutes } from '../../server/vite/public-files';
import { buildRouteTree } from '../../shared/route-tree';
import { getRaw, type RawBody } from '../helpers/get-raw';

describe('a public file hides a page only when the page answers its URL through static segments', () => {
  test.each([
    { files: ['robots.txt/page.tsx'], url: '/robots.txt', hides: 'robots.txt/page.tsx' },
    { files: ['(legal)/about/page.tsx'], url: '/about', hides: '(legal)/about/page.tsx' },
    { files: ['about/page.tsx', '[slug]/page.tsx'], url: '/about', hides: 'about/page.tsx' },
    {
      files: ['blog/[slug]/page.tsx', 'blog/feed.xml/page.tsx'],
      url: '/blog/feed.xml',
      hides: 'blog/feed.xml/page.tsx',
    },
    { files: ['page.tsx'], url: '/', hides: 'page.tsx' },
    // A route handler answers its URL as a page does.
    { files: ['robots.txt/route.ts'], url: '/robots.txt', hides: 'robots.txt/route.ts' },
    // A param is a fallback: it yields the URL to the file and answers every other one.
    { files: ['[slug]/page.tsx'], url: '/about', hides: null },
    { files: ['docs/[...path]/page.tsx'], url: '/docs/guide.txt', hides: null },
    { files: ['[[...all]]/page.tsx'], url: '/favicon.ico', hides: null },
    { files: ['blog/[slug]/page.tsx'], url: '/blog/hello', hides: null },
    // So is a layout that answers only through a slot: no page of that URL exists.
    { files: ['layout.tsx', '@modal/about/page.tsx', '@modal/default.tsx'], url: '/about', hides: null },
    { files: ['about/layout.tsx', 'page.tsx'], url: '/about', hides: null },
    { files: ['page.tsx'], url: '/index.html', hides: null },
  ])('$url against $files', ({ files, url, hides }) => {
    const shadowed = shadowedRoutes(buildRouteTree(files), [url]);
    expect(shadowed).toEqual(hides === null ? [] : [{ url, page: hides }]);
  });
});

const fixture = resolve('test/fixtures/public-site');
const out = mkdtempSync(join(tmpdir(), 'switchyard-public-'));
const copy = mkdtempSync(join(tmpdir(), 'switchyard-public-copy-'));
afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(copy, { recursive: true, force: true });
});

const prefix = '../fixtures/public-site/app/';
const modules: RouteModules = Object.fromEntries(
  Object.entries(import.meta.glob('../fixtures/public-site/app/**/*.{ts,tsx}')).map(([path, load]) => [
    path.slice(prefix.length),
    load,
  ]),
);

/** The app over a build's client folder, listening on a free port; its origin. */
async function serve(staticDir: string, servers: http.Server[]): Promise<string> {
  const app = createApp({ modules, buildId: 'p1', staticDir, logger: { error: vi.fn(), info: vi.fn() } });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((done) => server.once('listening', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a built app with a public folder, served', { timeout: 60_000 }, () => {
  const servers: http.Server[] = [];
  let origin = '';
  const client = join(out, 'client');
  beforeAll(async () => {
    await buildApp({ root: fixture, appDir: join(fixture, 'app'), outDir: out });
    origin = await serve(client, servers);
  }, 60_000);
  afterAll(() => Promise.all(servers.map((s) => new Promise((done) => s.close(done)))));
  const get = (path: string, headers: Record<string, string> = {}, method?: string): Promise<RawBody> =>
    getRaw(origin + path, headers, method);

  test('the build copies public/ into the client folder, with compressed twins of the text and the icon', () => {
    expect(readFileSync(join(client, 'robots.txt'))).toEqual(
      readFileSync(join(fixture, 'public/robots.txt')),
    );
    for (const twin of ['robots.txt.br', 'robots.txt.gz', 'favicon.ico.br', 'favicon.ico.gz']) {
      expect(existsSync(join(client, twin)), twin).toBe(true);
    }
  });

  test('a public file carries a strong ETag and must be revalidated; the same tag answers 304 with no body', async () => {
    const first = await get('/robots.txt');
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(first.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(first.headers.vary).toBe('accept-encoding');
    expect(first.body).toEqual(readFileSync(join(fixture, 'public/robots.txt')));
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    for (const method of ['GET', 'HEAD']) {
      const again = await get('/robots.txt', { 'if-none-match': etag }, method);
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
      expect(again.headers.vary).toBe('accept-encoding');
    }
    // A weak comparison, as If-None-Match asks, and a tag among others.
    expect((await get('/robots.txt', { 'if-none-match': `"x", W/${etag}` })).status).toBe(304);
    const other = await get('/robots.txt', { 'if-none-match': '"not-it"' });
    expect(other.status).toBe(200);
    expect(other.body.length).toBeGreaterThan(0);
  });

  test('the brotli twin is another representation, with a tag of its own', async () => {
    const plain = await get('/robots.txt');
    const br = await get('/robots.txt', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(br.body)).toEqual(plain.body);
    expect(br.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(br.headers.etag).not.toBe(plain.headers.etag);
    const gzip = await get('/robots.txt', { 'accept-encoding': 'gzip' });
    expect(new Set([plain.headers.etag, br.headers.etag, gzip.headers.etag]).size).toBe(3);

    expect(
      (await get('/robots.txt', { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! })).status,
    ).toBe(304);
    // The identity copy's tag does not validate the brotli one.
    const crossed = await get('/robots.txt', {
      'accept-encoding': 'br',
      'if-none-match': plain.headers.etag!,
    });
    expect(crossed.status).toBe(200);
    expect(crossed.headers['content-encoding']).toBe('br');
  });

  test('the tag follows the content, not the copy: another server over a copy of the build gives the same tags', async () => {
    cpSync(client, copy, { recursive: true });
    const second = await serve(copy, servers);
    for (const path of ['/robots.txt', '/favicon.ico']) {
      const here = (await get(path)).headers.etag;
      expect((await getRaw(second + path)).headers.etag).toBe(here);
    }
    const tags = await Promise.all(
      ['/robots.txt', '/favicon.ico', '/docs/guide.txt'].map(async (p) => (await get(p)).headers.etag),
    );
    expect(new Set(tags).size).toBe(3);
  });

  test('hashed assets stay kept for good, with no tag to revalidate', async () => {
    const manifest = JSON.parse(readFileSync(join(client, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      { file: string }
    >;
    const asset = Object.values(manifest)[0]!.file;
    expect(asset).toMatch(/^assets\//);
    const res = await get(`/${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.etag).toBeUndefined();
  });

  test('/favicon.ico goes out as an icon', async () => {
    const res = await get('/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/vnd.microsoft.icon');
    expect(res.body).toEqual(readFileSync(join(fixture, 'public/favicon.ico')));
  });

  test('a file under a catch-all route is the file; the route answers the rest', async () => {
    const file = await get('/docs/guide.txt');
    expect(file.status).toBe(200);
    expect(file.body.toString()).toBe('The public copy of the guide.\n');
    const page = await get('/docs/other');
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('<h1>Doc <!-- -->other</h1>');
  });

  test('names with a space arrive percent-encoded; .well-known/ is served, other dot-folders are not', async () => {
    expect((await get('/notes/read%20me.txt')).body.toString()).toBe('A file whose name has a space.\n');
    // An escaped slash stays in its name: no file is called "notes/read me.txt".
    for (const path of ['/notes%2Fread%20me.txt', '/notes%2fread%20me.txt']) {
      expect((await get(path)).status).toBe(404);
    }
    expect((await get('/.well-known/security.txt')).body.toString()).toContain('Contact:');
    expect((await get('/.vite/manifest.json')).status).toBe(404);
  });

  test('a page still renders, and a missing public file is the app’s 404 page', async () => {
    const home = await get('/');
    expect(home.status).toBe(200);
    expect(home.body.toString()).toContain('<h1>Public site home</h1>');
    const missing = await get('/nope.txt');
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
    expect(missing.body.toString()).toContain('<h1>Public site: no such page</h1>');
  });
});
