/**
 * The production server with Sentry on: `node --import ./server/instrument.mjs`
 * with a DSN that points at a receiver on 127.0.0.1, and tracing on so that a transaction would
 * show. One event per server error, tagged with route and digest; nothing for 4xx, redirects, an
 * aborted request or the tunnel. "Nothing" is checked after a later error's event has arrived.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEnvelopeReceiver, type EnvelopeReceiver } from '../helpers/envelope-receiver';
import { eventsOf, itemsOf, titleOf } from '../helpers/sentry-events';
import { BUILDS } from './global-setup';
import { skipWithoutChromium, startServer, type RunningServer } from './harness';

const digestIn = (html: string) => /Digest: <code>([0-9a-f]{10})<\/code>/.exec(html)?.[1];

type Seen = { title: string | undefined; tags: Record<string, string> | undefined };

/** Every event so far as its title and tags, once `done` says the last one awaited is in. */
async function eventsWhen(receiver: EnvelopeReceiver, done: (events: Seen[]) => boolean): Promise<Seen[]> {
  const seen = () =>
    eventsOf(receiver).map(({ payload }) => ({ title: titleOf(payload), tags: payload.tags }));
  await expect.poll(() => done(seen()), { timeout: 10_000 }).toBe(true);
  return seen();
}
const arrived = (title: string) => (events: Seen[]) => events.some((e) => e.title === title);

// The builds exist only where the browser tests run (test/e2e/global-setup.ts).
describe.skipIf(skipWithoutChromium)('the production server reports to Sentry', () => {
  let receiver: EnvelopeReceiver;
  let demo: RunningServer;
  let basic: RunningServer;
  beforeAll(async () => {
    receiver = await startEnvelopeReceiver();
    const env = {
      SENTRY_DSN: `http://publickey@127.0.0.1:${receiver.port}/123`,
      SENTRY_TRACES_SAMPLE_RATE: '1',
      NODE_OPTIONS: '--import ./server/instrument.mjs',
    };
    [demo, basic] = await Promise.all([startServer('demo', { env }), startServer('basic', { env })]);
  });
  afterAll(async () => {
    await Promise.all([demo?.stop(), basic?.stop()]);
    await receiver?.close();
  });

  test('a load error: one event with route, digest and source; the digest is the page’s and the log’s', async () => {
    receiver.reset();
    const page = await fetch(`${demo.url}/lab/server-error`);
    expect(page.status).toBe(500);
    const digest = digestIn(await page.text());
    expect(demo.logs.join('')).toContain(`GET /lab/server-error failed, digest ${digest}`);
    const data = await fetch(`${demo.url}/lab/server-error?_sy=%2F`);
    const { digest: dataDigest } = (await data.json()) as { digest: string };
    // The same error again: its event comes after any second event of the first two.
    await fetch(`${demo.url}/lab/server-error`);
    const title = 'The lab asked this loader to fail (server-error).';
    const tags = { route: '/lab/server-error', source: 'load' };
    expect(await eventsWhen(receiver, (events) => events.length >= 3)).toEqual([
      { title, tags: { ...tags, digest } },
      { title, tags: { ...tags, digest: dataDigest } },
      { title, tags: expect.objectContaining(tags) },
    ]);
    const [event] = eventsOf(receiver);
    const build = JSON.parse(readFileSync(`${BUILDS.demo.out}/build.json`, 'utf8')) as { buildId: string };
    expect(event!.payload).toMatchObject({
      platform: 'node',
      release: build.buildId,
      transaction: '/lab/server-error',
    });
  });

  test('a render error outside Suspense and one inside: one event each', async () => {
    receiver.reset();
    const shell = await fetch(`${basic.url}/lab/render-throws`);
    expect(shell.status).toBe(500);
    const shown = digestIn(await shell.text());
    const late = await fetch(`${basic.url}/lab/late-throw`);
    expect(late.status).toBe(200);
    const sent = /data-dgst="([0-9a-f]{10})"/.exec(await late.text())?.[1];
    // A load error after both: the last event to wait for.
    await fetch(`${basic.url}/lab/throws`);
    expect(await eventsWhen(receiver, arrived('load exploded with a private detail'))).toEqual([
      {
        title: 'render exploded with a private detail',
        tags: { route: '/lab/render-throws', source: 'render', digest: shown },
      },
      { title: 'late render exploded', tags: { route: '/lab/late-throw', source: 'render', digest: sent } },
      { title: 'load exploded with a private detail', tags: expect.objectContaining({ source: 'load' }) },
    ]);
  });

  test('no event for a 404, a redirect, a refused redirect target or an aborted request', async () => {
    receiver.reset();
    for (const [path, status] of [
      ['/photos/99999', 404],
      ['/no/such/page', 404],
      ['/lab/redirect', 307],
      ['/p/7', 308],
      ['/lab/redirect?to=%2F%2Fevil.example', 400],
    ] as const) {
      expect((await fetch(demo.url + path, { redirect: 'manual' })).status).toBe(status);
    }
    // A client that leaves once the shell is in: React aborts the Suspense boundary still loading.
    const socket = connect(Number(new URL(demo.url).port), '127.0.0.1');
    socket.write('GET /lab/slow?delay=5000 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await new Promise<void>((resolve) => {
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString();
        if (received.includes('</html>') || received.includes('slow-loading')) resolve();
      });
    });
    socket.destroy();
    await fetch(`${demo.url}/lab/server-error`);
    const title = 'The lab asked this loader to fail (server-error).';
    expect((await eventsWhen(receiver, arrived(title))).map((e) => e.title)).toEqual([title]);
  });

  test('a page is one transaction named by its route, with its loader’s span; the document carries its trace; files are never traced', async () => {
    receiver.reset();
    const page = await fetch(`${demo.url}/photos/1`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const asset = /\/assets\/[\w.-]+\.js/.exec(html)?.[0];
    for (const file of [asset, '/robots.txt', '/favicon.ico'])
      expect((await fetch(`${demo.url}${file}`)).status).toBe(200);
    // A traced request after them: its spans are sent after any the files made.
    expect((await fetch(`${demo.url}/lab`)).status).toBe(200);
    type Span = {
      name: string;
      trace_id: string;
      span_id: string;
      is_segment: boolean;
      attributes: Record<string, { value: unknown }>;
    };
    const spans = () => itemsOf<{ items: Span[] }>(receiver, 'span').flatMap((s) => s.payload.items);
    const segmentAt = (path: string) =>
      spans().find((s) => s.is_segment && s.attributes['url.path']?.value === path);
    await expect.poll(() => segmentAt('/lab')?.name, { timeout: 10_000 }).toBe('GET /lab');
    const segment = segmentAt('/photos/1')!;
    expect(segment.name).toBe('GET /photos/[id]');
    expect(segment.attributes['http.response.status_code']?.value).toBe(200);
    const below = spans().filter((s) => s.attributes['sentry.segment.id']?.value === segment.span_id);
    expect(below.map((s) => s.name)).toContain('load photos/[id]/page.server.ts');
    expect(/"sentryTrace":"([0-9a-f]{32})-/.exec(html)?.[1]).toBe(segment.trace_id);
    const paths = spans().map((s) => s.attributes['url.path']?.value);
    for (const file of [asset, '/robots.txt', '/favicon.ico']) expect(paths).not.toContain(file);
  });

  test('the tunnel relays an envelope as it came, and creates no event or span of its own', async () => {
    receiver.reset();
    const envelope = `${JSON.stringify({ dsn: `http://publickey@127.0.0.1:${receiver.port}/123` })}\n{"type":"event"}\n{"message":"from the browser"}\n`;
    const relayed = await fetch(`${demo.url}/monitoring`, { method: 'POST', body: envelope });
    expect(relayed.status).toBe(200);
    // A traced page request after it: its spans are sent after any the tunnel made.
    expect((await fetch(`${demo.url}/lab`)).status).toBe(200);
    const spans = () => JSON.stringify(itemsOf(receiver, 'span').map((s) => s.payload));
    await expect.poll(() => spans().includes('"url.path":{"value":"/lab"'), { timeout: 10_000 }).toBe(true);
    expect(spans()).not.toContain('/monitoring');
    expect(spans()).not.toContain('/api/123/envelope');
    const events = eventsOf(receiver);
    expect(events.map((e) => e.payload.message)).toEqual(['from the browser']);
    expect(events[0]!.request.body.toString()).toBe(envelope);
  });
});
