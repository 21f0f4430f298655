import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import type { SentryOptions } from '../../server/options';
import { SENTRY_TUNNEL_MAX_BYTES, SENTRY_TUNNEL_MAX_DECOMPRESSED_BYTES } from '../../shared/constants';
import { startEnvelopeReceiver, type EnvelopeReceiver } from '../helpers/envelope-receiver';
import { closedPort, listenOnLoopback, startCanary, type Canary } from '../helpers/loopback-server';
import { rawRequest } from '../helpers/raw-request';
import { basicApp } from './fixture-app';

const EVENT_ID = '0123456789abcdef0123456789abcdef';
const MESSAGE = 'Tunnel test: café ✓';
const ATTACHMENT = 'line one\nline two';

let receiver: EnvelopeReceiver;
let canary: Canary;
/** The DSN the tunnel under test is configured with: the receiver, project 123. */
let dsn: string;
let tunnelUrl: string;
let tunnelPort: number;
const logger = { error: vi.fn(), info: vi.fn() };
const closers: (() => Promise<void>)[] = [];

/** A Switchyard app listening on loopback; closed after all tests. */
async function serve(sentry?: SentryOptions) {
  const server = await listenOnLoopback(createApp({ modules: basicApp, logger, ...(sentry && { sentry }) }));
  closers.push(server.close);
  return server;
}

beforeAll(async () => {
  receiver = await startEnvelopeReceiver();
  canary = await startCanary();
  closers.push(receiver.close, canary.close);
  dsn = `http://public@127.0.0.1:${receiver.port}/123`;
  ({ url: tunnelUrl, port: tunnelPort } = await serve({ dsn }));
});
afterAll(() => Promise.all(closers.map((close) => close())));
beforeEach(() => {
  receiver.reset();
  canary.requests.length = 0;
  logger.error.mockClear();
});
// The tunnel answers every failure itself; nothing may reach the app's error log (or Sentry).
afterEach(() => expect(logger.error).not.toHaveBeenCalled());

/** An envelope as the browser SDK sends it: an event and an attachment whose payload has a newline. */
function envelope(sentTo: string, pad = 0): Buffer {
  const event = JSON.stringify({ event_id: EVENT_ID, level: 'error', message: MESSAGE });
  const attachment = ATTACHMENT + 'x'.repeat(pad);
  const lines = [
    JSON.stringify({ event_id: EVENT_ID, sent_at: '2025-01-01T00:00:00.000Z', dsn: sentTo }),
    JSON.stringify({ type: 'event', length: Buffer.byteLength(event) }),
    event,
    JSON.stringify({ type: 'attachment', length: Buffer.byteLength(attachment), filename: 'a.txt' }),
    attachment,
  ];
  return Buffer.from(lines.join('\n'));
}

/** One chunk of a `Transfer-Encoding: chunked` body. */
function chunk(data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
}

function post(
  body: Uint8Array | string,
  headers: Record<string, string> = {},
  url = tunnelUrl + '/monitoring',
) {
  return fetch(url, {
    method: 'POST',
    body: typeof body === 'string' ? body : new Uint8Array(body),
    headers,
  });
}

function expectRelayedOnce(sentTo = dsn, path = '/api/123/envelope/') {
  expect(receiver.requests).toHaveLength(1);
  const [request] = receiver.requests;
  expect(request?.url).toBe(path);
  const items = request?.envelope?.items ?? [];
  expect(request?.envelope?.header.dsn).toBe(sentTo);
  expect(items.map((item) => item.header.type)).toEqual(['event', 'attachment']);
  expect(JSON.parse(items[0]?.payload.toString('utf8') ?? '')).toMatchObject({ message: MESSAGE });
  expect(items[1]?.payload.toString('utf8')).toMatch(/^line one\nline two/);
  return request;
}

describe('relaying', () => {
  test("a good envelope reaches the DSN's endpoint, parsed, and Sentry's answer comes back", async () => {
    const res = await post(envelope(dsn), { 'content-type': 'text/plain;charset=UTF-8' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: EVENT_ID });
    expect(expectRelayedOnce()?.headers['content-type']).toBe('application/x-sentry-envelope');
  });

  test('a gzip envelope is read and forwarded as received, with its encoding', async () => {
    const gzipped = gzipSync(envelope(dsn));
    const res = await post(gzipped, { 'content-encoding': 'gzip' });
    expect(res.status).toBe(200);
    const request = expectRelayedOnce();
    expect(request?.headers['content-encoding']).toBe('gzip');
    expect(request?.body.equals(gzipped)).toBe(true);
  });

  test('a chunked body with no length under the limit is relayed', async () => {
    const body = envelope(dsn);
    const chunks = [chunk(body.subarray(0, 40)), chunk(body.subarray(40)), Buffer.from('0\r\n\r\n')];
    const res = await rawRequest(
      tunnelPort,
      'POST /monitoring HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close',
      () => chunks.shift(),
    );
    expect(res.status).toBe(200);
    expectRelayedOnce();
  });

  test('an envelope of exactly the limit is relayed', async () => {
    let pad = SENTRY_TUNNEL_MAX_BYTES - envelope(dsn).length;
    pad -= envelope(dsn, pad).length - SENTRY_TUNNEL_MAX_BYTES; // the attachment's length grew digits
    const body = envelope(dsn, pad);
    expect(body.length).toBe(SENTRY_TUNNEL_MAX_BYTES);
    expect((await post(body)).status).toBe(200);
    expectRelayedOnce();
  });

  test('a configured path and a DSN with a path prefix are honoured', async () => {
    const prefixed = `http://public@127.0.0.1:${receiver.port}/sentry/123`;
    const other = await serve({ dsn: prefixed, tunnelPath: '/errors-go-here' });
    expect((await post(envelope(prefixed), {}, other.url + '/errors-go-here')).status).toBe(200);
    expect((await post(envelope(prefixed), {}, other.url + '/monitoring')).status).toBe(405);
    expectRelayedOnce(prefixed, '/sentry/api/123/envelope/');
  });
});

describe('refusals', () => {
  const project = (rest: string) => `http://public@127.0.0.1:${receiver.port}${rest}`;

  test.each<[string, () => string]>([
    ['another port (the canary)', () => `http://public@127.0.0.1:${canary.port}/123`],
    ['another name for the same host', () => `http://public@localhost:${receiver.port}/123`],
    ['a host with our host as a prefix', () => `http://public@127.0.0.1.evil.example:${receiver.port}/123`],
    ['project 12 for 123', () => project('/12')],
    ['project 1234 for 123', () => project('/1234')],
    ['project 0123 for 123', () => project('/0123')],
    ['another path prefix', () => project('/evil/123')],
    [
      'our host in the userinfo',
      () => `http://public@127.0.0.1:${receiver.port}@127.0.0.1:${canary.port}/123`,
    ],
    ['our host as the user name', () => `http://127.0.0.1:${receiver.port}@evil.example/123`],
    ['a backslash before our host', () => `http://public@evil.example\\@127.0.0.1:${receiver.port}/123`],
    ['https for http', () => `https://public@127.0.0.1:${receiver.port}/123`],
    ['another scheme', () => `ftp://public@127.0.0.1:${receiver.port}/123`],
  ])('a DSN with %s is a 403 and nothing is sent', async (_name, foreign) => {
    const res = await post(envelope(foreign()));
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe("Forbidden: the envelope's DSN is not this app's project.");
    expect(receiver.requests).toEqual([]);
    expect(canary.requests).toEqual([]);
  });

  test.each<[string, () => string | Buffer, string]>([
    ['an empty body', () => '', 'the envelope is empty.'],
    ['no newline', () => JSON.stringify({ dsn }), 'the envelope has no header line.'],
    ['a header that is not JSON', () => 'dsn=oops\n{}', "the envelope's header line is not JSON."],
    ['a null header', () => 'null\n{}', "the envelope's header has no DSN."],
    ['an array header', () => `${JSON.stringify([dsn])}\n{}`, "the envelope's header has no DSN."],
    [
      'a header without a DSN',
      () => `{"event_id":"${EVENT_ID}"}\n{"type":"event"}\n{}`,
      "the envelope's header has no DSN.",
    ],
    ['a DSN that is a number', () => '{"dsn":123}\n', "the envelope's header has no DSN."],
    ['a DSN that is not a URL', () => envelope('not a url'), "the envelope's DSN is not a Sentry DSN."],
    ['a DSN without a project id', () => envelope(project('/')), "the envelope's DSN is not a Sentry DSN."],
    [
      'a DSN with a project id that is not a number',
      () => envelope(project('/123abc')),
      "the envelope's DSN is not a Sentry DSN.",
    ],
    [
      'a DSN without a public key',
      () => envelope(`http://127.0.0.1:${receiver.port}/123`),
      "the envelope's DSN is not a Sentry DSN.",
    ],
    ['a DSN with a query', () => envelope(project('/123?x=1')), "the envelope's DSN is not a Sentry DSN."],
  ])('%s is a 400', async (_name, body, reason) => {
    const res = await post(body());
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(`Bad Request: ${reason}`);
    expect(receiver.requests).toEqual([]);
  });

  test('a gzip header on a body that is not gzip is a 400; another encoding is a 415', async () => {
    const notGzip = await post(envelope(dsn), { 'content-encoding': 'gzip' });
    expect(notGzip.status).toBe(400);
    expect(await notGzip.text()).toBe('Bad Request: the body is not valid gzip.');
    expect((await post(envelope(dsn), { 'content-encoding': 'br' })).status).toBe(415);
    expect(receiver.requests).toEqual([]);
  });

  test('with no DSN there is no tunnel (404), nothing is sent, and pages still render', async () => {
    const app = await serve();
    const res = await post(envelope(dsn), {}, app.url + '/monitoring');
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('Not Found: no Sentry DSN is configured, so there is no tunnel.');
    expect((await fetch(app.url + '/')).status).toBe(200);
    expect(receiver.requests).toEqual([]);
  });

  test('a DSN that is not usable, or a tunnel path Express would read as a pattern, fails at start', () => {
    expect(() => createApp({ modules: basicApp, sentry: { dsn: 'ftp://k@127.0.0.1/1' } })).toThrow(
      /sentry\.dsn/,
    );
    expect(() => createApp({ modules: basicApp, sentry: { tunnelPath: '/:path' } })).toThrow(/tunnelPath/);
  });
});

describe('browser tracing', () => {
  const TRACE_ID = '0123456789abcdef0123456789abcdef';
  /**
   * What the browser SDK sends for a page load through a tunnel: its spans as one `span` item
   * (SDK 11 streams spans by default), or a `transaction` item (with `traceLifecycle: 'static'`).
   */
  function tracingEnvelope(sentTo: string | undefined, type: 'span' | 'transaction', pad = 0): Buffer {
    const span = {
      trace_id: TRACE_ID,
      span_id: '0123456789abcdef',
      name: '/photos/[id]',
      pad: 'x'.repeat(pad),
    };
    const payload = JSON.stringify(
      type === 'span'
        ? { version: 2, items: [{ ...span, is_segment: true, attributes: {} }] }
        : { type: 'transaction', transaction: span.name, contexts: { trace: span }, spans: [] },
    );
    const itemHeader =
      type === 'span'
        ? { type, item_count: 1, content_type: 'application/vnd.sentry.items.span.v2+json' }
        : { type, length: Buffer.byteLength(payload) };
    const header = {
      sent_at: '2025-01-01T00:00:00.000Z',
      trace: { trace_id: TRACE_ID, public_key: 'public', sampled: 'true' },
      sdk: { name: 'sentry.javascript.react', version: '11.12.0' },
      ...(sentTo === undefined ? {} : { dsn: sentTo }),
    };
    return Buffer.from([JSON.stringify(header), JSON.stringify(itemHeader), payload].join('\n'));
  }

  test.each(['span', 'transaction'] as const)('a %s envelope is relayed as it came', async (type) => {
    const body = tracingEnvelope(dsn, type);
    const res = await post(body);
    expect(res.status).toBe(200);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]?.body.equals(body)).toBe(true);
    expect(receiver.requests[0]?.envelope?.items.map((item) => item.header.type)).toEqual([type]);
  });

  test.each(['span', 'transaction'] as const)(
    'a %s envelope is refused as any other: another project, no DSN, over the limit',
    async (type) => {
      const foreign = await post(tracingEnvelope(`http://public@127.0.0.1:${canary.port}/123`, type));
      expect(foreign.status).toBe(403);
      const anonymous = await post(tracingEnvelope(undefined, type));
      expect(anonymous.status).toBe(400);
      expect(await anonymous.text()).toBe("Bad Request: the envelope's header has no DSN.");
      const large = await post(tracingEnvelope(dsn, type, SENTRY_TUNNEL_MAX_BYTES));
      expect(large.status).toBe(413);
      expect(receiver.requests).toEqual([]);
      expect(canary.requests).toEqual([]);
    },
  );
});

describe('size limits', () => {
  test('a Content-Length over the limit is a 413 before the body is sent', async () => {
    const head = `POST /monitoring HTTP/1.1\r\nContent-Length: ${SENTRY_TUNNEL_MAX_BYTES + 1}`;
    const start = [envelope(dsn).subarray(0, 100)];
    const res = await rawRequest(tunnelPort, head, () => start.shift());
    // Only 100 bytes of the body were ever sent: the answer could not have waited for the rest.
    expect(res).toMatchObject({ status: 413, bodyBytesWritten: 100 });
    expect(res.headers.connection).toBe('close');
    expect(res.body).toBe(`Payload Too Large: the envelope is over ${SENTRY_TUNNEL_MAX_BYTES} bytes.`);
    expect(receiver.requests).toEqual([]);
  });

  test('a chunked body is cut off at the limit with a 413, before it ends', async () => {
    const piece = chunk(Buffer.alloc(64 * 1024, 'x'));
    let sent = 0;
    // Up to twice the limit, and never the last chunk: a tunnel that waits for the end never answers.
    const next = () => (sent++ < (2 * SENTRY_TUNNEL_MAX_BYTES) / (64 * 1024) ? piece : undefined);
    const res = await rawRequest(tunnelPort, 'POST /monitoring HTTP/1.1\r\nTransfer-Encoding: chunked', next);
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(res.body).toBe(`Payload Too Large: the envelope is over ${SENTRY_TUNNEL_MAX_BYTES} bytes.`);
    expect(receiver.requests).toEqual([]);
  });

  test('a gzip bomb is a 413 and is not forwarded', async () => {
    const header = Buffer.from(`${JSON.stringify({ dsn })}\n{"type":"attachment"}\n`);
    const bomb = gzipSync(Buffer.concat([header, Buffer.alloc(SENTRY_TUNNEL_MAX_DECOMPRESSED_BYTES)]));
    expect(bomb.length).toBeLessThan(SENTRY_TUNNEL_MAX_BYTES);
    const res = await post(bomb, { 'content-encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect(await res.text()).toMatch(/^Payload Too Large: the envelope inflates to over/);
    expect(receiver.requests).toEqual([]);
  });
});

describe('upstream answers', () => {
  test('a 429 comes back with Retry-After and X-Sentry-Rate-Limits', async () => {
    receiver.answerWith({
      kind: 'rate-limit',
      retryAfter: '60',
      rateLimits: '60:error;transaction:organization',
    });
    const res = await post(envelope(dsn));
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('60');
    expect(res.headers.get('x-sentry-rate-limits')).toBe('60:error;transaction:organization');
    expect(await res.text()).toBe('receiver: rate limited');
    expectRelayedOnce();
  });

  test('another 4xx comes back with its body', async () => {
    receiver.answerWith({ kind: 'status', status: 400, body: 'receiver: bad envelope' });
    const res = await post(envelope(dsn));
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('receiver: bad envelope');
  });

  test('a 500 is a 502', async () => {
    receiver.answerWith({ kind: 'status', status: 500, body: 'receiver: broken' });
    const res = await post(envelope(dsn));
    expect(res.status).toBe(502);
    expect(await res.text()).toBe('Bad Gateway: Sentry answered with 500.');
    expectRelayedOnce();
  });

  test.each([302, 307] as const)(
    'a %i redirect is not followed: a 502, and its target sees nothing',
    async (status) => {
      receiver.answerWith({ kind: 'redirect', status, location: `${canary.url}/api/123/envelope/` });
      const res = await post(envelope(dsn));
      expect(res.status).toBe(502);
      expect(await res.text()).toBe(
        'Bad Gateway: Sentry answered with a redirect, which the tunnel does not follow.',
      );
      expectRelayedOnce();
      expect(canary.requests).toEqual([]);
    },
  );

  test('a refused connection is a 502', async () => {
    const nowhere = `http://public@127.0.0.1:${await closedPort()}/123`;
    const app = await serve({ dsn: nowhere });
    const res = await post(envelope(nowhere), {}, app.url + '/monitoring');
    expect(res.status).toBe(502);
    expect(await res.text()).toBe('Bad Gateway: Sentry could not be reached.');
  });

  test('a Sentry that never answers is a 504 after the timeout', { timeout: 2_000 }, async () => {
    receiver.answerWith({ kind: 'hang' });
    const app = await serve({ dsn, tunnelTimeoutMs: 200 });
    const res = await post(envelope(dsn), {}, app.url + '/monitoring');
    expect(res.status).toBe(504);
    expect(await res.text()).toBe('Gateway Timeout: Sentry did not answer within 200 ms.');
    expectRelayedOnce();
  });
});
