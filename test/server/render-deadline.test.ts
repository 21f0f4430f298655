/**
 * A render that has sent nothing when its deadline passes — a loader still running, or a shell
 * still suspended — answers 503 with `Retry-After` at once, logs one line with its route and
 * reports nothing; a loader that finishes later writes nothing. The loader waits on a gate the
 * test opens after the answer; the deadline is a fake timer the test moves past.
 */
import type { AddressInfo } from 'node:net';
import type { Writable } from 'node:stream';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import type { RenderOutcome } from '../../server/options';
import { TOO_SLOW_MESSAGE } from '../../server/render/render-document';
import { RENDER_DEADLINE_RETRY_AFTER_S } from '../../shared/constants';
import { openGate, whenWaiting } from '../fixtures/gate';
import { whenHangReached } from '../fixtures/hang';
import { basicApp } from './fixture-app';

const DEADLINE_MS = 5_000;

/**
 * The brotli compressor's way to the response, held until the test lets it go: what a busy zlib
 * thread pool does to a document whose shell is out of React but not yet on the socket.
 */
const compressorPipe = vi.hoisted(() => {
  let piped!: () => void;
  const state = {
    reached: new Promise<void>((resolve) => (piped = resolve)),
    release: () => {},
  };
  return { state, piped: () => piped() };
});
vi.mock('node:zlib', async (importOriginal) => {
  const zlib = await importOriginal<typeof import('node:zlib')>();
  return {
    ...zlib,
    createBrotliCompress: (...args: Parameters<typeof zlib.createBrotliCompress>) => {
      const compressor = zlib.createBrotliCompress(...args);
      const pipe = compressor.pipe.bind(compressor);
      compressor.pipe = <T extends NodeJS.WritableStream>(destination: T) => {
        compressorPipe.state.release = () => void pipe(destination as unknown as Writable);
        compressorPipe.piped();
        return destination;
      };
      return compressor;
    },
  };
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
});

async function listen() {
  const logger = { error: vi.fn(), info: vi.fn() };
  const reporter = { report: vi.fn() };
  let ended!: (outcome: RenderOutcome) => void;
  const outcome = new Promise<RenderOutcome>((resolve) => (ended = resolve));
  const server = createApp({
    modules: basicApp,
    logger,
    reporter,
    renderDeadlineMs: DEADLINE_MS,
    observer: { renderEnded: (value) => ended(value) },
  });
  const http = server.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return { server, http, base, logger, reporter, outcome };
}

test.each([
  ['a document whose loader is still running', '/lab/slow-load', '/lab/slow-load'],
  ['page data whose loader is still running', '/lab/slow-load?_sy=%2F', '/lab/slow-load'],
])('%s at the deadline: 503 with Retry-After, one log line, nothing reported', async (_, path, route) => {
  const { server, http, base, logger, reporter, outcome } = await listen();
  try {
    const waiting = whenWaiting('slow-load');
    const response = fetch(base + path);
    await waiting;
    vi.advanceTimersByTime(DEADLINE_MS);
    const res = await response;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(RENDER_DEADLINE_RETRY_AFTER_S));
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe(`Service Unavailable: ${TOO_SLOW_MESSAGE}`);
    expect(await outcome).toBe('timeout');
    expect(server.locals.stats).toEqual({ activeRenders: 0, pendingDeadlines: 0 });

    // The loader finishes after the answer: nothing more is written, logged or reported.
    openGate('slow-load');
    await new Promise((resolve) => setImmediate(resolve));
    expect(logger.error.mock.calls).toEqual([
      [
        `[switchyard] GET /lab/slow-load (${route}): nothing to send after the render deadline of ${DEADLINE_MS} ms; answered 503`,
      ],
    ]);
    expect(reporter.report).not.toHaveBeenCalled();
  } finally {
    openGate('slow-load');
    http.close();
  }
});

test('a shell still suspended at the deadline is the same 503, not a 500 reported as a bug', async () => {
  const { http, base, logger, reporter, outcome } = await listen();
  try {
    const reached = whenHangReached();
    const response = fetch(`${base}/lab/disconnect`);
    await reached;
    vi.advanceTimersByTime(DEADLINE_MS);
    const res = await response;
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe(String(RENDER_DEADLINE_RETRY_AFTER_S));
    expect(await res.text()).toBe(`Service Unavailable: ${TOO_SLOW_MESSAGE}`);
    expect(await outcome).toBe('timeout');
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(reporter.report).not.toHaveBeenCalled();
  } finally {
    http.close();
  }
});

test('the deadline passing after the shell went to the compressor, before its bytes reached the socket, answers nothing more: the document ends as it began', async () => {
  const { http, base, logger, outcome } = await listen();
  try {
    const response = fetch(`${base}/`, { headers: { 'accept-encoding': 'br' } });
    await compressorPipe.state.reached;
    vi.advanceTimersByTime(DEADLINE_MS);
    compressorPipe.state.release();
    const res = await response;
    // One answer: the document's status and brotli encoding, a body that decodes, no 503 in it.
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(await res.text()).toMatch(/^<!DOCTYPE html>/);
    expect(await outcome).toBe('timeout');
    expect(logger.error).not.toHaveBeenCalled();
  } finally {
    http.close();
  }
});
