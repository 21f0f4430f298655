/**
 * The client build's files: listed once at start-up, so a page request never touches the file
 * system for them, and each sent as the `.br` or `.gz` twin the build made, never compressed
 * per request.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import { precompressAssets } from '../../server/vite/precompress';
import { getRaw } from '../helpers/get-raw';
import { basicApp } from './fixture-app';

const dir = mkdtempSync(join(tmpdir(), 'switchyard-static-'));
mkdirSync(join(dir, 'assets'));
mkdirSync(join(dir, '.vite'));
const SCRIPT = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word${i}`))};\n`;
writeFileSync(join(dir, 'assets/entry-abc123.js'), SCRIPT);
writeFileSync(join(dir, 'assets/tiny-def456.js'), 'export {};\n');
const STYLE = Array.from({ length: 60 }, (_, i) => `.item-${i} { margin: ${i}px; }`).join('\n');
writeFileSync(join(dir, 'assets/layout-aaa111.css'), STYLE);
writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\n');
writeFileSync(join(dir, '.vite/manifest.json'), '{}');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('build-time compression', () => {
  test('a text asset over 1 KiB (script or stylesheet) gets a brotli and a gzip twin; a tiny one and the manifest none', async () => {
    expect(await precompressAssets(dir)).toBe(2);
    expect(readdirSync(join(dir, 'assets')).sort()).toEqual([
      'entry-abc123.js',
      'entry-abc123.js.br',
      'entry-abc123.js.gz',
      'layout-aaa111.css',
      'layout-aaa111.css.br',
      'layout-aaa111.css.gz',
      'tiny-def456.js',
    ]);
    expect(gunzipSync(readFileSync(join(dir, 'assets/layout-aaa111.css.gz'))).toString()).toBe(STYLE);
    expect(brotliDecompressSync(readFileSync(join(dir, 'assets/entry-abc123.js.br'))).toString()).toBe(
      SCRIPT,
    );
    expect(gunzipSync(readFileSync(join(dir, 'assets/entry-abc123.js.gz'))).toString()).toBe(SCRIPT);
    expect(readdirSync(join(dir, '.vite'))).toEqual(['manifest.json']);
  });
});

describe('serving the build', () => {
  const app = () =>
    createApp({
      modules: basicApp,
      buildId: 'b1',
      staticDir: dir,
      logger: { error: vi.fn(), info: vi.fn() },
    });
  let server: http.Server;
  let origin = '';
  // After the twins are written: the build's files are listed when the app starts.
  beforeAll(async () => {
    server = app().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  const get = (path: string, headers: Record<string, string> = {}, method?: string) =>
    getRaw(origin + path, headers, method);

  test('the precompressed twin goes out for the encoding the client takes, and the file itself otherwise', async () => {
    const br = await get('/assets/entry-abc123.js', { 'accept-encoding': 'gzip, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.body).toEqual(readFileSync(join(dir, 'assets/entry-abc123.js.br')));

    const gzip = await get('/assets/entry-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body).toEqual(readFileSync(join(dir, 'assets/entry-abc123.js.gz')));

    const plain = await get('/assets/entry-abc123.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
    expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(SCRIPT)));

    const head = await get('/assets/entry-abc123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.body.length).toBe(0);
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(
      String(readFileSync(join(dir, 'assets/entry-abc123.js.br')).length),
    );
  });

  test('a file without twins goes out as it is; a file outside assets/ is not kept for good', async () => {
    const tiny = await get('/assets/tiny-def456.js', { 'accept-encoding': 'br' });
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe('export {};\n');
    const robots = await get('/robots.txt');
    expect(robots.body.toString()).toBe('User-agent: *\n');
    expect(robots.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });

  test('the twins themselves, dot-folders and unknown assets are not files of the build', async () => {
    // Each falls through to the pages, which have no such route.
    for (const path of ['/.vite/manifest.json', '/assets/missing-000.js', '/assets/entry-abc123.js.br']) {
      expect((await get(path)).status).toBe(404);
    }
  });

  test('a page request never touches the file system for the build folder', async () => {
    const touched: string[] = [];
    const spies = (
      ['stat', 'statSync', 'lstat', 'lstatSync', 'open', 'openSync', 'access', 'existsSync'] as const
    ).map((name) => {
      const original = fs[name] as (...args: unknown[]) => unknown;
      return vi.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
        touched.push(String(args[0]));
        return original(...args);
      }) as never);
    });
    const promiseSpy = vi.spyOn(fs.promises, 'stat');
    try {
      const res = await get('/photos/7');
      expect(res.status).toBe(200);
      expect(res.body.toString()).toContain('<h1>Photo');
    } finally {
      spies.forEach((spy) => spy.mockRestore());
      promiseSpy.mockRestore();
    }
    expect(touched.filter((path) => path.startsWith(dir))).toEqual([]);
    expect(promiseSpy).not.toHaveBeenCalled();
  });
});

describe('a download that cannot finish', () => {
  const bigDir = mkdtempSync(join(tmpdir(), 'switchyard-static-big-'));
  const big = join(bigDir, 'big.bin');
  // Far more than the socket buffers hold, so the server is still reading when the client leaves.
  writeFileSync(big, Buffer.alloc(8 * 1024 * 1024, 1));
  writeFileSync(join(bigDir, 'gone.txt'), 'soon removed\n');
  let server: http.Server;
  let origin = '';
  beforeAll(async () => {
    server = createApp({
      modules: basicApp,
      buildId: 'b1',
      staticDir: bigDir,
      logger: { error: vi.fn(), info: vi.fn() },
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(bigDir, { recursive: true, force: true });
  });
  /** This process's descriptors open on `path` (Linux, where CI runs). */
  const openOn = (path: string) =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === path;
      } catch {
        return false; // The descriptor the listing itself used, closed by now.
      }
    }).length;

  test('the file is closed once the client goes away mid-download', async () => {
    const openWhileSending = await new Promise<number>((resolve, reject) => {
      const req = http.get(`${origin}/big.bin`, { agent: false }, (res) => {
        res.once('data', () => {
          resolve(openOn(big));
          req.destroy();
        });
      });
      req.once('error', reject);
    });
    expect(openWhileSending).toBe(1);
    await expect.poll(() => openOn(big)).toBe(0);
  });

  test('a file removed since start-up is an error page, not a cut connection', async () => {
    rmSync(join(bigDir, 'gone.txt'));
    const res = await getRaw(`${origin}/gone.txt`);
    expect(res.status).toBe(500);
  });
});
