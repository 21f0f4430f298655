/**
 * Compression: documents and page data go out brotli or gzip per `Accept-Encoding`, a streamed
 * document still sends its shell before the rest is ready, and the encoding is chosen by the
 * client's weights.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  brotliCompressSync,
  brotliDecompressSync,
  constants,
  createBrotliDecompress,
  createGunzip,
  gunzipSync,
} from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { negotiateEncoding } from '../../server/http/compression';
import { createApp } from '../../server/create-app';
import { getRaw } from '../helpers/get-raw';
import { basicApp } from './fixture-app';

let onRenderEnded = () => {};
const app = createApp({
  modules: basicApp,
  buildId: 'b1',
  logger: { error: vi.fn(), info: vi.fn() },
  observer: { renderEnded: () => onRenderEnded() },
});
let server: http.Server;
let origin: string;
beforeAll(async () => {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const get = (path: string, headers: Record<string, string>) => getRaw(origin + path, headers);

describe('negotiateEncoding', () => {
  test.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.1', 'br'],
    ['BR', 'br'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', null],
    ['deflate', null],
    ['gzip;q=0', null],
    ['', null],
    [undefined, null],
  ])('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('compressed responses', () => {
  test('a document goes out brotli, gzip or plain as the client accepts', async () => {
    const br = await get('/', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(br.body).toString()).toContain('<h1>Home</h1>');

    const gzip = await get('/', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).toString()).toContain('<h1>Home</h1>');

    const plain = await get('/', {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toContain('<h1>Home</h1>');
  });

  test('page data goes out compressed too (past 1 KiB), and plain to a client that takes none', async () => {
    const br = await get('/lab/big?_sy=', { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toMatchObject({ url: '/lab/big' });

    const gzip = await get('/lab/big?_sy=', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toMatchObject({ url: '/lab/big' });

    const plain = await get('/lab/big?_sy=', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toMatchObject({ url: '/lab/big' });

    // Brotli's quality 5, the first that models literals by their context: smaller than 4 gives.
    const json = plain.body;
    const at = (quality: number) =>
      brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: quality } }).length;
    expect(at(5)).toBeLessThan(at(4));
    expect(br.body.length).toBe(at(5));

    // A small answer is not worth the compressor's cost.
    const small = await get('/photos/7?_sy=', { 'accept-encoding': 'br' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toMatchObject({ url: '/photos/7' });
  });

  test.each([
    ['br', createBrotliDecompress],
    ['gzip', createGunzip],
  ] as const)(
    'a streamed document sends its shell at once through %s, while the rest still waits',
    async (encoding, decoder) => {
      // lab/slow suspends forever below its loading state: only a flushed shell can arrive.
      const ended = new Promise<void>((resolve) => (onRenderEnded = resolve));
      const shell = await new Promise<string>((resolve, reject) => {
        const req = http.get(
          `${origin}/lab/slow`,
          { headers: { 'accept-encoding': encoding }, agent: false },
          (res) => {
            expect(res.headers['content-encoding']).toBe(encoding);
            let text = '';
            const decoded = res.pipe(decoder());
            decoded.on('data', (chunk: Buffer) => {
              text += chunk.toString();
              if (text.includes('id="loading"')) {
                req.destroy();
                resolve(text);
              }
            });
            decoded.once('error', reject);
          },
        );
        req.once('error', (error) => (req.destroyed ? undefined : reject(error)));
      });
      expect(shell).toContain('Loading…');
      expect(shell).not.toContain('never');
      // The client went away mid-stream: the render and its compressor end with the response.
      await ended;
      expect(app.locals.stats).toEqual({ activeRenders: 0, pendingDeadlines: 0 });
    },
  );
});
