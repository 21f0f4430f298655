/**
 * The reporter seam in the document handler: every real error is reported
 * exactly once, with the route, the digest the user got and where it happened; router signals,
 * 4xx answers and aborted renders never are. Also what the document tells the browser.
 */
import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import type { ErrorContext } from '../../server/sentry/error-reporter';
import type { SwitchyardOptions } from '../../server/options';
import { openGate, whenWaiting } from '../fixtures/gate';
import { whenHangReached } from '../fixtures/hang';
import { basicApp } from './fixture-app';

function app(options: Partial<SwitchyardOptions> = {}) {
  const logger = { error: vi.fn(), info: vi.fn() };
  const report = vi.fn<(error: unknown, context: ErrorContext) => void>();
  const server = createApp({ modules: basicApp, logger, reporter: { report }, ...options });
  return { server, logger, report };
}

const servers: { close(): void }[] = [];
afterEach(() => servers.splice(0).forEach((s) => s.close()));

async function listen(server: ReturnType<typeof app>['server']): Promise<number> {
  const http = server.listen(0, '127.0.0.1');
  servers.push(http);
  await new Promise((resolve) => http.once('listening', resolve));
  return (http.address() as AddressInfo).port;
}

describe('real errors: reported once, with route, digest and source', () => {
  test('a load error, in a document and in page data', async () => {
    const { server, report, logger } = app();
    const page = await request(server).get('/lab/throws');
    const shown = /Digest: <code>([0-9a-f]{10})<\/code>/.exec(page.text)?.[1];
    const data = await request(server).get('/lab/throws?_sy=%2F');
    expect(data.status).toBe(500);
    expect(report.mock.calls.map(([error, context]) => [(error as Error).message, context])).toEqual([
      ['load exploded with a private detail', { route: '/lab/throws', digest: shown, source: 'load' }],
      [
        'load exploded with a private detail',
        { route: '/lab/throws', digest: data.body.digest, source: 'load' },
      ],
    ]);
    expect(logger.error).toHaveBeenCalledTimes(2);
  });

  test('a render error outside Suspense: React hands it over twice, it is reported once', async () => {
    const { server, report, logger } = app();
    const res = await request(server).get('/lab/render-throws');
    expect(res.status).toBe(500);
    const shown = /Digest: <code>([0-9a-f]{10})<\/code>/.exec(res.text)?.[1];
    expect(report).toHaveBeenCalledTimes(1);
    expect(report.mock.calls[0]![1]).toEqual({
      route: '/lab/render-throws',
      digest: shown,
      source: 'render',
    });
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  test('a render error inside Suspense: the shell is a 200, the boundary carries the digest', async () => {
    const { server, report } = app();
    const res = await request(server).get('/lab/late-throw');
    expect(res.status).toBe(200);
    const sent = /data-dgst="([0-9a-f]{10})"/.exec(res.text)?.[1];
    expect(sent).toBeDefined();
    expect(report.mock.calls.map(([, context]) => context)).toEqual([
      { route: '/lab/late-throw', digest: sent, source: 'render' },
    ]);
  });

  test('a streamed loader error is a load error, reported once', async () => {
    const { server, report } = app();
    const port = await listen(server);
    const waiting = whenWaiting('streamed');
    const res = await fetch(`http://127.0.0.1:${port}/signals/streamed?then=throw`);
    await waiting;
    openGate('streamed');
    const html = await res.text();
    const sent = /\{"digest":"([0-9a-f]{10})"\}/.exec(html)?.[1];
    expect(report.mock.calls.map(([, context]) => context)).toEqual([
      { route: '/signals/streamed', digest: sent, source: 'load' },
    ]);
  });
});

describe('never reported', () => {
  test.each([
    ['an unknown URL', '/no/such/page', 404],
    ['notFound() in load', '/photos/404', 404],
    ['notFound() in page data', '/photos/404?_sy=%2F', 404],
    ['redirect() in load', '/signals/redirect', 307],
    ['a hostile redirect target', '/signals/redirect?to=%2F%2Fevil.example', 400],
    ['notFound() while rendering', '/signals/render-not-found', 404],
    ['redirect() while rendering', '/signals/render-redirect', 307],
    ['a malformed URL', '/photos/%E0%A4%A', 400],
    ['a bad page-data mode', '/?_syp=nope', 400],
  ])('%s (%s → %i)', async (_what, url, status) => {
    const { server, report } = app();
    expect((await request(server).get(url)).status).toBe(status);
    expect(report).not.toHaveBeenCalled();
  });

  test.each(['not-found', 'redirect'])('a %s signal from a streamed loader', async (then) => {
    const { server, report } = app();
    const port = await listen(server);
    const waiting = whenWaiting('streamed');
    const res = await fetch(`http://127.0.0.1:${port}/signals/streamed?then=${then}`);
    await waiting;
    openGate('streamed');
    await res.text();
    expect(report).not.toHaveBeenCalled();
  });

  test.each([
    ['before the shell', '/lab/disconnect'],
    ['after the shell, inside Suspense', '/lab/slow'],
  ])('a render aborted by a client that went away %s', async (_when, path) => {
    let ended!: () => void;
    const whenEnded = new Promise<void>((resolve) => (ended = resolve));
    const { server, report } = app({ observer: { renderEnded: () => ended() } });
    const port = await listen(server);
    const reached = whenHangReached();
    const socket = connect(port, '127.0.0.1');
    socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await reached;
    socket.destroy();
    await whenEnded;
    // React finishes an abort in later ticks: a whole request after it is the sentinel.
    await request(server).get('/lab/throws');
    expect(report.mock.calls.map(([error]) => (error as Error).message)).toEqual([
      'load exploded with a private detail',
    ]);
  });
});

describe('what the document tells the browser', () => {
  const script = (html: string) => /self\.__SWITCHYARD_SENTRY__=(\{.*?\})<\/script>/.exec(html)?.[1];

  test('with a DSN: the DSN, our tunnel path, the release (the build id by default), the environment', async () => {
    const dsn = 'https://public@o1.ingest.example/42';
    const plain = app({ buildId: 'b1', sentry: { dsn } }).server;
    expect(JSON.parse(script((await request(plain).get('/')).text)!)).toEqual({
      dsn,
      tunnel: '/monitoring',
      release: 'b1',
    });
    const named = app({
      sentry: { dsn, tunnelPath: '/t', environment: 'staging', release: 'v2', tracesSampleRate: 0.25 },
    }).server;
    expect(JSON.parse(script((await request(named).get('/')).text)!)).toEqual({
      dsn,
      tunnel: '/t',
      environment: 'staging',
      release: 'v2',
      tracesSampleRate: 0.25,
    });
  });

  test('a traces rate of 0 is not told (the browser loads no tracing code); one outside 0 to 1 fails at start', async () => {
    const dsn = 'https://public@o1.ingest.example/42';
    const off = app({ sentry: { dsn, tracesSampleRate: 0 } }).server;
    expect(script((await request(off).get('/')).text)).not.toContain('tracesSampleRate');
    for (const rate of [-0.1, 1.5, Number.NaN]) {
      expect(() => app({ sentry: { dsn, tracesSampleRate: rate } })).toThrow(
        `sentry.tracesSampleRate must be a number from 0 to 1, got ${rate}`,
      );
    }
  });

  test('with no DSN (or an empty one): nothing, so the browser never loads the SDK', async () => {
    for (const options of [{}, { sentry: { dsn: '' } }]) {
      const res = await request(app(options).server).get('/');
      expect(res.text).toContain('self.__SWITCHYARD__=');
      expect(res.text).not.toContain('SENTRY');
    }
  });
});
