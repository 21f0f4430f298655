/**
 * The document's write path into a compressor: React's chunks reach zlib one batch at a time
 * (each write into a zlib stream is a thread-pool job of its own), in order, with the HTML the
 * server adds, and each `flush()` still sends what came before it.
 */
import { PassThrough, Writable } from 'node:stream';
import {
  brotliDecompressSync,
  createBrotliCompress,
  createBrotliDecompress,
  createGunzip,
  gunzipSync,
} from 'node:zlib';
import type { Response } from 'express';
import type { PipeableStream } from 'react-dom/server';
import { afterEach, expect, test, vi } from 'vitest';
import { HtmlInjector } from '../../server/render/html-injector';

/** zlib's one `_transform`, shared by brotli and gzip: each call is a job on the thread pool. */
const zlibPrototype = Object.getPrototypeOf(
  Object.getPrototypeOf(Object.getPrototypeOf(createBrotliCompress())),
) as {
  _transform: (...args: unknown[]) => void;
};

afterEach(() => {
  vi.restoreAllMocks();
});

/** A response that keeps what it is sent; what Express adds is not needed here. */
function fakeResponse(): { res: Response; body: () => Promise<Buffer> } {
  const sink = new PassThrough();
  const parts: Buffer[] = [];
  sink.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise<void>((resolve) => sink.on('end', resolve));
  const res = Object.assign(sink, { setHeader: () => res }) as unknown as Response;
  return { res, body: async () => (await ended, Buffer.concat(parts)) };
}

/** A stand-in for React's stream: `pipe` runs the writes a render would, batch by batch. */
function fakeRender(batches: string[][]): PipeableStream & { next: () => void } {
  let destination: Writable & { flush?: () => void };
  let at = 0;
  const next = () => {
    for (const chunk of batches[at++]!) destination.write(new TextEncoder().encode(chunk));
    destination.flush?.();
    if (at === batches.length) destination.end();
  };
  return {
    pipe<T extends NodeJS.WritableStream>(target: T): T {
      destination = target as unknown as Writable;
      next();
      return target;
    },
    abort() {},
    next,
  };
}

const chunk = (batch: number, i: number) => `<p>batch ${batch}, chunk ${i}: ${'x'.repeat(2000)}</p>`;
const batch = (n: number) => Array.from({ length: 20 }, (_, i) => chunk(n, i));

/** The calls that carried HTML (zlib's `flush()` writes an empty chunk of its own). */
const htmlWrites = (transform: { mock: { calls: unknown[][] } }) =>
  transform.mock.calls.filter(([chunk]) => (chunk as Uint8Array).byteLength > 0).length;

test.each([
  ['br', brotliDecompressSync],
  ['gzip', gunzipSync],
] as const)('%s: a batch of React writes reaches the compressor as one write', async (encoding, decode) => {
  const transform = vi.spyOn(zlibPrototype, '_transform');
  const { res, body } = fakeResponse();
  const render = fakeRender([batch(1), batch(2)]);
  const out = new HtmlInjector(res);
  out.inject('<script>before the shell</script>');
  out.pipeFrom(render, encoding);
  out.inject('<script>between batches</script>');
  render.next();
  const html = decode(await body()).toString();
  // The shell's batch with what was added before it, the HTML added on its own, the last batch:
  // three writes where the chunks were forty.
  expect(htmlWrites(transform)).toBe(3);
  // What was added before the shell follows it, at its flush.
  expect(html).toBe(
    batch(1).join('') +
      '<script>before the shell</script>' +
      '<script>between batches</script>' +
      batch(2).join(''),
  );
});

test.each([
  ['br', createBrotliDecompress],
  ['gzip', createGunzip],
] as const)(
  '%s: the shell reaches the client at its flush, before the page ends',
  async (encoding, decoder) => {
    const { res } = fakeResponse();
    const decoded = decoder();
    let text = '';
    decoded.on('data', (part: Buffer) => (text += part.toString()));
    (res as unknown as PassThrough).pipe(decoded);
    const render = fakeRender([batch(1), batch(2)]);
    new HtmlInjector(res).pipeFrom(render, encoding);
    // Only the shell's batch has been written and flushed: it arrives whole while the render goes on.
    await vi.waitFor(() => expect(text).toBe(batch(1).join('')), { timeout: 10_000 });
    render.next();
    await new Promise((resolve) => decoded.on('end', resolve));
    expect(text).toBe(batch(1).join('') + batch(2).join(''));
  },
);
