/**
 * Gzip bombs sent to the Sentry tunnel in parallel: each is refused, none is relayed, and the
 * process does not hold their inflated sizes at once (the inflate budget is the tunnel's, and an
 * inflation keeps only the header line). Its own file, so that the worker's memory is its alone.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import { startEnvelopeReceiver, type EnvelopeReceiver } from '../helpers/envelope-receiver';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server';
import { basicApp } from './fixture-app';

const MB = 1024 * 1024;
const BOMBS = 100;

let receiver: EnvelopeReceiver;
let server: LoopbackServer;
let dsn: string;

beforeAll(async () => {
  receiver = await startEnvelopeReceiver();
  dsn = `http://public@127.0.0.1:${receiver.port}/123`;
  const logger = { error: vi.fn(), info: vi.fn() };
  server = await listenOnLoopback(createApp({ modules: basicApp, logger, sentry: { dsn } }));
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

test(`${BOMBS} parallel gzip bombs: all refused, none relayed, RSS grows by less than 150 MB`, async () => {
  // 50 MiB of zeros after a good header line: about 50 KB on the wire.
  const header = Buffer.from(`${JSON.stringify({ dsn })}\n{"type":"attachment"}\n`);
  const bomb = new Uint8Array(gzipSync(Buffer.concat([header, Buffer.alloc(50 * MB)])));
  const before = process.memoryUsage.rss();
  const answers = await Promise.all(
    Array.from({ length: BOMBS }, () =>
      fetch(`${server.url}/monitoring`, {
        method: 'POST',
        body: bomb,
        headers: { 'content-encoding': 'gzip' },
      }).then(async (res) => ({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        text: await res.text(),
      })),
    ),
  );
  const grown = (process.memoryUsage.rss() - before) / MB;
  for (const answer of answers) {
    if (answer.status === 503) expect(answer.retryAfter).toBe('1');
    else expect(answer.text).toMatch(/^Payload Too Large: the envelope inflates to over/);
  }
  expect(answers.some((answer) => answer.status === 413)).toBe(true);
  expect(receiver.requests).toEqual([]);
  expect(grown).toBeLessThan(150);
}, 60_000);
