/**
 * The one write path of a streamed document: React writes straight into the response (or into
 * the compressor in front of it), and the server adds HTML of its own (streamed data, meta
 * tags) between React's write batches. React writes each batch synchronously and calls
 * `flush()` at its end, so between two batches the document is at a tag boundary; what is added
 * before the shell's batch waits for it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Writable } from 'node:stream';
import type { Response } from 'express';
import type { PipeableStream } from 'react-dom/server';
import { createCompressor, type Encoding } from '../http/compression.js';

type Destination = Writable & { flush?: () => void };

/**
 * Runs a function outside every request's async context: in the context this module was loaded
 * in — at start-up in production, and in development inside the first request's handler but
 * before any store of the framework's (the development server starts no Sentry).
 */
const outsideRequests = AsyncLocalStorage.snapshot();

/** The events React's `pipe()` listens to on its destination. */
const LISTENED = ['drain', 'error', 'close'] as const;

export class HtmlInjector {
  /** Set once the shell is out: from then on, HTML is added as soon as it comes. */
  #destination: Destination | undefined;
  /**
   * HTML added before the shell went out, in order. One string, not an array: an array literal
   * that lives as long as a request is soon allocated straight in the old generation (see
   * `PageRequest`).
   */
  #waiting = '';
  #onClose: (() => void) | undefined;

  constructor(private readonly res: Response) {}

  /** Sends the document: React's stream into the response, through a compressor for `encoding`. */
  pipeFrom(stream: PipeableStream, encoding: Encoding | null): void {
    const { res } = this;
    const compressor = encoding ? createCompressor(encoding) : undefined;
    const destination: Destination = compressor ?? res;
    if (compressor && encoding) {
      res.setHeader('content-encoding', encoding);
      compressor.pipe(res);
    }
    endOutsideTheRequest(res);
    const flushCompressor = compressor && writeInBatches(compressor);
    destination.flush = () => {
      if (!this.#destination) {
        this.#destination = destination;
        if (this.#waiting) destination.write(this.#waiting);
        this.#waiting = '';
      }
      flushCompressor?.();
    };
    // The head and the whole shell go out in one write to the socket with no corking of ours:
    // Node corks a response's socket from its first write to the end of that tick, and `pipe()`
    // writes the shell's batch (and ends a page with nothing left to stream) before it returns.
    this.#onClose = pipeUntilClosed(stream, destination, compressor);
  }

  /**
   * The response has closed (the client went away, or it was sent): the compressor closes too,
   * which tells React to stop, and React's listeners go. The document handler calls this from
   * the response's one `close` listener, its own.
   */
  closed(): void {
    const onClose = this.#onClose;
    this.#onClose = undefined;
    onClose?.();
  }

  /** Adds HTML at the next safe place: now, if React is between batches and the shell is out. */
  inject(html: string): void {
    const destination = this.#destination;
    if (this.res.destroyed || destination?.writableEnded) return;
    if (!destination) {
      this.#waiting += html;
      return;
    }
    destination.write(html);
    destination.flush?.();
  }
}

/**
 * React writes a batch of HTML as many chunks of 2 KB and then calls `flush()`. Into a zlib
 * stream each write is a job of its own on libuv's thread pool, with its callbacks: some twenty
 * for a page of 37 KB. Here a batch is held until its `flush()` (or the end) and handed over as
 * one write, which compresses the same bytes for well under half the CPU (measured in
 * docs/performance.md, "Compressing a batch at once"). `write` answers as if what is held had
 * been written: React stops between two boundaries of a batch once the compressor is past its
 * high-water mark and goes on at `drain`, so a slow client is handed no more than unbatched.
 * Returns the flush.
 */
function writeInBatches(compressor: Destination): () => void {
  const write = compressor.write.bind(compressor) as (chunk: Uint8Array) => boolean;
  const end = compressor.end.bind(compressor) as (...args: unknown[]) => Destination;
  const flush = compressor.flush!.bind(compressor);
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  const release = () => {
    if (held.length === 0) return;
    const batch = held.length === 1 ? held[0]! : Buffer.concat(held);
    held.length = 0;
    heldBytes = 0;
    // Past the high-water mark this write sets the compressor's `drain`, which React waits for.
    write(batch);
  };
  compressor.write = ((chunk: Uint8Array | string, ...rest: unknown[]) => {
    // zlib's own `flush()` writes an empty chunk that carries the flush, and a write with a
    // callback (or an encoding) waits for its own chunk: each goes through at once, after what
    // is held.
    if (chunk.length === 0 || rest.length > 0) {
      release();
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    held.push(bytes);
    heldBytes += bytes.byteLength;
    return (
      !compressor.writableNeedDrain &&
      compressor.writableLength + heldBytes < compressor.writableHighWaterMark
    );
  }) as Destination['write'];
  compressor.end = ((...args: unknown[]) => {
    release();
    return end(...args);
  }) as Destination['end'];
  return () => {
    release();
    flush();
  };
}

/**
 * React's `pipe()` listens on its destination and never stops. Those listeners hold the whole
 * render (the page state, its data, the document's scripts) for as long as the response object
 * lives, and V8's young-generation collector often keeps a finished response a while: the render
 * would be promoted to the old generation with it, one render per request (measured in
 * docs/performance.md). The function this returns removes them, once the response has closed.
 * A function of its own, so that no closure left on the response shares a scope with the list.
 *
 * React's `close` listener on the response itself is taken off at once and called from there:
 * the response keeps one `close` listener, the document handler's. A second one would turn
 * Node's list of the response's `close` listeners into an array, made at one place in Node for
 * every emitter; arrays made there mostly live as long as a response, so V8 soon allocates them
 * straight in the old generation, where, dead, one keeps its listeners (and through them the
 * whole request) alive until the next full collection (measured in docs/performance.md).
 */
function pipeUntilClosed(
  stream: PipeableStream,
  destination: Destination,
  compressor: Destination | undefined,
): () => void {
  const before = LISTENED.map((event) => destination.listenerCount(event));
  stream.pipe(destination);
  const added = LISTENED.flatMap((event, i) =>
    destination
      .listeners(event)
      .slice(before[i])
      .map((listener) => [event, listener as () => void] as const),
  );
  const moved = compressor ? [] : added.filter(([event]) => event === 'close');
  for (const [event, listener] of moved) destination.removeListener(event, listener);
  return () => {
    compressor?.destroy();
    for (const [event, listener] of added) destination.removeListener(event, listener);
    for (const [, listener] of moved) listener.call(destination);
  };
}

/**
 * As a response finishes, Node arms its keep-alive socket's idle timer in the context the response
 * was ended in, and a timer keeps that context's async-local stores: here React's render (and
 * through its callbacks the page's state and data) and the request's own scope, held until the
 * connection's next request. The young collector finds them alive and promotes them to the old
 * generation, one render per open connection (measured in docs/performance.md). Ended outside
 * the request, the timer holds nothing of it.
 */
function endOutsideTheRequest(res: Response): void {
  const end = res.end;
  res.end = function (this: Response, ...args: unknown[]) {
    return outsideRequests(() => (end as (...a: unknown[]) => Response).apply(this, args));
  } as Response['end'];
}

/** An inline script, with the response's CSP nonce when it has one. */
export function inlineScript(code: string, nonce: string | undefined): string {
  return nonce ? `<script nonce="${nonce}">${code}</script>` : `<script>${code}</script>`;
}
