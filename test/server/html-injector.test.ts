/**
 * The document's write path into a compressor: React's chunks reach zlib one batch at a time
 * (each write into a zlib stream is a thread-pool job of its own), in order, with the HTML the
 * server adds, and each `flush()` still sends what came before it.
 */
import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import {
  brotliDecompressSync,
  createBrotliCompress,
  createBrotliDecompress,
  createGunzip,
  gunzipSync,
} from 'node:zlib';
import type { Response } from 'express';
import { createElement, Suspense, use } from 'react';
import { renderToPipeableStream, type PipeableStream } from 'react-dom/server';
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

/**
 * React stops between two boundaries of a batch once `write` answers false and goes on at
 * `drain`: the compressor is never handed much more than its high-water mark, however much of
 * the page is ready at once. Held bytes count as written for that answer.
 */
test.each([['br'], ['gzip']] as const)(
  '%s: a batch stops at the compressor’s high-water mark, and the rest follows at drain',
  async (encoding) => {
    const compress = zlibPrototype._transform;
    let mostPending = 0;
    let highWaterMark = 0;
    // What the compressor has been handed and not yet compressed, each time it starts on a chunk.
    vi.spyOn(zlibPrototype, '_transform').mockImplementation(function (this: Writable, ...args: unknown[]) {
      mostPending = Math.max(mostPending, this.writableLength);
      highWaterMark = this.writableHighWaterMark;
      compress.apply(this, args);
    });
    let release!: () => void;
    const ready = new Promise<void>((resolve) => (release = resolve));
    // Forty boundaries of 4 KB that resolve together, after the shell: one batch of 160 KB.
    const texts = Array.from({ length: 40 }, () => randomBytes(3000).toString('base64'));
    const Item = ({ text }: { text: string }) => (use(ready), createElement('p', null, text));
    const page = createElement(
      'html',
      null,
      createElement(
        'body',
        null,
        texts.map((text, i) =>
          createElement(Suspense, { key: i, fallback: 'loading' }, createElement(Item, { text })),
        ),
      ),
    );
    const { res, body } = fakeResponse();
    const stream = await new Promise<PipeableStream>((resolve) => {
      const render = renderToPipeableStream(page, { onShellReady: () => resolve(render) });
    });
    new HtmlInjector(res).pipeFrom(stream, encoding);
    release();
    const html = (encoding === 'br' ? brotliDecompressSync : gunzipSync)(await body()).toString();
    for (const text of texts) expect(html).toContain(`<p>${text}</p>`);
    expect(html).toMatch(/<\/html>$/);
    expect(mostPending).toBeLessThan(highWaterMark + 8 * 1024);
  },
);

test('a write that asks to be told when it is done goes through at once, after what is held', async () => {
  const { res, body } = fakeResponse();
  let told = false;
  const render: PipeableStream = {
    pipe<T extends NodeJS.WritableStream>(target: T): T {
      const destination = target as unknown as Writable & { flush?: () => void };
      destination.write(new TextEncoder().encode('<p>held</p>'));
      destination.write('<p>told</p>', 'utf8', () => (told = true));
      destination.flush?.();
      destination.end();
      return target;
    },
    abort() {},
  };
  new HtmlInjector(res).pipeFrom(render, 'br');
  expect(brotliDecompressSync(await body()).toString()).toBe('<p>held</p><p>told</p>');
  expect(told).toBe(true);
});
