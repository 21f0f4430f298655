/**
 * The server-action endpoint over HTTP: each of its checks tried as an attack, and
 * each kind of result (value, redirect, revalidation, error) as the client and a no-JS form see it.
 */
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import request from 'supertest';
import { describe, expect, test, vi } from 'vitest';
import { MAX_ARG_ENTRIES } from '../../server/actions/action-args';
import { actionId } from '../../server/actions/action-registry';
import { createApp } from '../../server/create-app';
import { callerAddress } from '../../server/index';
import { ACTION_HEADER, actionUrl } from '../../shared/actions';
import { basicApp } from './fixture-app';

const load = (name: string) => () =>
  import('../fixtures/basic/actions').then((m) => (m as Record<string, unknown>)[name]);
const ACTIONS = Object.fromEntries(
  ['echo', 'goTo', 'fail', 'touch', 'formEcho', 'whoCalls'].map((name) => [
    actionId('basic/actions.ts', name),
    load(name),
  ]),
);
// An export the build could not judge (`export const f = make()`) that is no function when loaded.
ACTIONS[actionId('basic/actions.ts', 'PAGE_SIZE')] = async () => 20;
const url = (name: string) => actionUrl(actionId('basic/actions.ts', name));
const ORIGIN = 'http://127.0.0.1';

function app(secret?: string) {
  const logger = { error: vi.fn(), info: vi.fn() };
  const reporter = { report: vi.fn() };
  return {
    app: createApp({ modules: basicApp, actions: ACTIONS, logger, reporter, secret }),
    logger,
    reporter,
  };
}

/** A call as the client runtime makes it. */
function call(server: ReturnType<typeof app>['app'], name: string, args: unknown[]) {
  return request(server)
    .post(url(name))
    .set('host', '127.0.0.1')
    .set('origin', ORIGIN)
    .set(ACTION_HEADER, '1')
    .set('content-type', 'application/json')
    .send(JSON.stringify({ args }));
}

test('an export that is not a function is no action: a 404, neither logged nor reported', async () => {
  const { app: server, logger, reporter } = app();
  const res = await call(server, 'PAGE_SIZE', []);
  expect([res.status, res.text]).toEqual([404, 'Not Found: no such server action.']);
  expect(logger.error).not.toHaveBeenCalled();
  expect(reporter.report).not.toHaveBeenCalled();
});

test('a call returns the action’s value as JSON', async () => {
  const res = await call(app().app, 'echo', [1, 'two', { three: [3] }]);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ value: { args: [1, 'two', { three: [3] }], polluted: null }, revalidated: [] });
});

test.each([
  ['application/json', '{"args":[]}'],
  ['text/plain', '{"args":[]}'],
  ['application/x-www-form-urlencoded', 'a=1'],
  [
    'multipart/form-data; boundary=x',
    '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n',
  ],
])('another origin is refused with a 403 for a %s body', async (type, body) => {
  const { app: server, logger } = app();
  const res = await request(server)
    .post(url('echo'))
    .set('host', '127.0.0.1')
    .set('origin', 'http://evil.example')
    .set('content-type', type)
    .send(body);
  expect(res.status).toBe(403);
  expect(res.text).toBe('Forbidden: Origin http://evil.example is not allowed');
  expect(logger.error).not.toHaveBeenCalled();
});

test('a cross-site fetch is refused even with a matching Origin', async () => {
  const res = await call(app().app, 'echo', []).set('sec-fetch-site', 'cross-site');
  expect(res.status).toBe(403);
});

test('a forged X-Forwarded-Host does not make another origin ours', async () => {
  const res = await call(app().app, 'echo', [])
    .set('origin', 'http://evil.example')
    .set('x-forwarded-host', 'evil.example');
  expect(res.status).toBe(403);
});

test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'nope#echo'])(
  'the id %j is a 404',
  async (id) => {
    const res = await request(app().app)
      .post(actionUrl(id))
      .set('host', '127.0.0.1')
      .set('origin', ORIGIN)
      .set('content-type', 'application/json')
      .send('{"args":[]}');
    expect(res.status).toBe(404);
  },
);

test('only POST: GET on an action is a 405', async () => {
  const res = await request(app().app).get(url('echo'));
  expect(res.status).toBe(405);
  expect(res.headers.allow).toBe('POST');
});

test('a text/plain body is a 415', async () => {
  const res = await call(app().app, 'echo', []).set('content-type', 'text/plain');
  expect(res.status).toBe(415);
});

test('{"__proto__": {"polluted": 1}} in the arguments pollutes nothing', async () => {
  const res = await request(app().app)
    .post(url('echo'))
    .set('host', '127.0.0.1')
    .set('origin', ORIGIN)
    .set(ACTION_HEADER, '1')
    .set('content-type', 'application/json')
    .send('{"args":[{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"ok":1}]}');
  expect(res.status).toBe(200);
  expect(res.body.value).toEqual({ args: [{ ok: 1 }], polluted: null });
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

test('a body of 1 MiB + 1 is a 413, by Content-Length and when chunked', async () => {
  const { app: server } = app();
  const big = JSON.stringify({ args: ['x'.repeat(1_048_576)] });
  const res = await call(server, 'echo', []).send(big);
  expect(res.status).toBe(413);

  const http = server.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  const port = (http.address() as AddressInfo).port;
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: url('echo'),
        headers: {
          host: '127.0.0.1',
          origin: ORIGIN,
          'content-type': 'application/json',
          [ACTION_HEADER]: '1',
          'transfer-encoding': 'chunked',
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode!);
      },
    );
    req.on('error', reject);
    // 65 chunks of 16 KiB: past 1 MiB without ever saying how long the body is.
    for (let i = 0; i < 65; i++) req.write('x'.repeat(16_384));
    req.end();
  });
  http.close();
  expect(status).toBe(413);
});

test('redirect() in an action: a signal for the client, a 303 for a form post', async () => {
  const { app: server, reporter } = app();
  const res = await call(server, 'goTo', ['/photos/2']);
  expect(res.body).toEqual({
    signal: { kind: 'redirect', location: '/photos/2', status: 307 },
    revalidated: [],
  });
  const form = await request(server)
    .post(url('goTo'))
    .set('host', '127.0.0.1')
    .set('origin', ORIGIN)
    .type('form')
    .send({ $bound: '["/photos/4"]' });
  expect(form.status).toBe(303);
  expect(form.headers.location).toBe('/photos/4');
  // What the action changed before it redirected still reaches the client.
  const changed = await call(server, 'goTo', ['/photos/2', '/photos']);
  expect(changed.body.revalidated).toEqual([{ path: '/photos', type: 'page' }]);
  const hostile = await call(server, 'goTo', ['//evil.example']);
  expect(hostile.status).toBe(400);
  expect(reporter.report).not.toHaveBeenCalled();
});

test('revalidatePath: the answer names each path once, without search or hash', async () => {
  const res = await call(app().app, 'touch', ['/photos/3?x=1', '/photos/3#c', '/', 'layout:/tags']);
  expect(res.body).toEqual({
    value: 'touched',
    revalidated: [
      { path: '/photos/3', type: 'page' },
      { path: '/', type: 'page' },
      { path: '/tags', type: 'layout' },
    ],
  });
});

test('a thrown error: a 500 with the digest only, logged and reported once with that digest', async () => {
  const { app: server, logger, reporter } = app();
  const res = await call(server, 'fail', []).set('referer', `${ORIGIN}/photos/3`);
  expect(res.status).toBe(500);
  expect(JSON.stringify(res.body)).not.toContain('secret');
  expect(res.body).toEqual({ error: 'server', digest: expect.stringMatching(/^[0-9a-f]{10}$/) });
  expect(logger.error).toHaveBeenCalledTimes(1);
  expect(logger.error.mock.calls[0]![0]).toContain(`digest ${res.body.digest}`);
  expect(reporter.report).toHaveBeenCalledTimes(1);
  expect(reporter.report.mock.calls[0]![1]).toEqual({
    route: '/photos/[id]', // the page the action was called from
    digest: res.body.digest,
    source: 'action',
  });
});

test('a no-JS form post: bound arguments first, then the form; a 303 back to the page', async () => {
  const { app: server } = app();
  const res = await request(server)
    .post(url('formEcho'))
    .set('host', '127.0.0.1')
    .set('origin', ORIGIN)
    .set('referer', `${ORIGIN}/photos/3?x=1`)
    .type('form')
    .send({ $bound: '[{"error":null}]', $ACTION_KEY: 'k1', $SY_ACTION: '', text: 'hi' });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/photos/3?x=1');
  // The same call from a script shows what the action received.
  const seen = await request(server)
    .post(url('formEcho'))
    .set('host', '127.0.0.1')
    .set('origin', ORIGIN)
    .set(ACTION_HEADER, '1')
    .type('form')
    .send({ $args: '[{"error":null},{"$form":true}]', text: 'hi' });
  expect(seen.body.value).toEqual({ previous: { error: null }, fields: { text: 'hi' } });
});

test(`a form's fields, $args and $bound share one cap of ${MAX_ARG_ENTRIES} keys and items: a 400 past it`, async () => {
  // `count` fields, and `count` items in each of $args and $bound: every part alone is under the cap.
  const post = (count: number) => {
    const fields = Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, '1']));
    const items = JSON.stringify(Array(count).fill(0));
    return request(app().app)
      .post(url('formEcho'))
      .set('host', '127.0.0.1')
      .set('origin', ORIGIN)
      .set(ACTION_HEADER, '1')
      .type('form')
      .send({ ...fields, $args: `[${items},{"$form":true}]`, $bound: items });
  };
  const fits = await post(3_000);
  expect(fits.status).toBe(200);
  expect(Object.keys(fits.body.value.fields)).toHaveLength(3_000);
  const over = await post(4_000);
  expect([over.status, over.text]).toEqual([
    400,
    `Bad Request: Action arguments hold more than ${MAX_ARG_ENTRIES} keys and items.`,
  ]);
});

test('a form post from another site’s page goes back to the home page, never to that site', async () => {
  const res = await request(app().app)
    .post(url('echo'))
    .set('host', '127.0.0.1')
    .set('origin', ORIGIN)
    .set('referer', 'http://evil.example/phish')
    .type('form')
    .send({ text: 'hi' });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/');
});

test.each([
  ['the page it came from', 'http://127.0.0.1:8080/photos/3?x=1', '/photos/3?x=1'],
  ['the home page from a page on another port', 'http://127.0.0.1:9999/photos/3', '/'],
])(
  'behind a proxy that keeps the port only in X-Forwarded-Host, a form post goes back to %s',
  async (_, referer, location) => {
    // What nginx sends with `proxy_set_header Host $host` on a port of its own.
    const server = createApp({ modules: basicApp, actions: ACTIONS, actionOrigins: { trustProxy: true } });
    const res = await request(server)
      .post(url('echo'))
      .set('host', '127.0.0.1')
      .set('x-forwarded-host', '127.0.0.1:8080')
      .set('x-forwarded-proto', 'http')
      .set('origin', 'http://127.0.0.1:8080')
      .set('referer', referer)
      .type('form')
      .send({ text: 'hi' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(location);
  },
);

test('without a trusted proxy, X-Forwarded-Host does not make another page ours', async () => {
  const res = await request(app().app)
    .post(url('echo'))
    .set('host', '127.0.0.1')
    .set('x-forwarded-host', 'evil.example')
    .set('origin', ORIGIN)
    .set('referer', 'http://evil.example/phish')
    .type('form')
    .send({ text: 'hi' });
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/');
});

describe('the no-JS form state, carried by a signed cookie', () => {
  const SECRET = 'the-deployment-secret-0123456789abcdef';
  const post = (server: ReturnType<typeof app>['app'], text: string, page = '/photos/3') =>
    request(server)
      .post(url('formEcho'))
      .set('host', '127.0.0.1')
      .set('origin', ORIGIN)
      .set('referer', `${ORIGIN}${page}`)
      .type('form')
      .send({ $bound: '[{"error":null}]', $ACTION_KEY: 'k1', $SY_ACTION: '', text });
  const formStateOf = (html: string) => /self\.__SWITCHYARD_FORM__=(.*?)<\/script>/.exec(html)?.[1];

  test('posted to one process, the page from another with the same secret shows it; cleared after', async () => {
    const posted = await post(app(SECRET).app, 'from the first process');
    expect(posted.status).toBe(303);
    const cookie = posted.headers['set-cookie']![0]!.split(';')[0]!;
    const other = app(SECRET).app;
    const page = await request(other).get('/photos/3').set('host', '127.0.0.1').set('cookie', cookie);
    expect(page.status).toBe(200);
    expect(formStateOf(page.text)).toContain('from the first process');
    expect(page.headers['set-cookie']![0]).toMatch(/^sy_form=;/);
    // Another deployment's secret (or a restarted process without one) reads nothing from it.
    const stranger = await request(app('another-deployment-secret-0123456789').app)
      .get('/photos/3')
      .set('host', '127.0.0.1')
      .set('cookie', cookie);
    expect(stranger.status).toBe(200);
    expect(formStateOf(stranger.text)).toBeUndefined();
  });

  test('a forged or malformed cookie: the normal page, no state, nothing injected', async () => {
    const forged = Buffer.from(
      JSON.stringify({
        path: '/photos/3',
        expires: 9e15,
        state: [{ error: '</script><script>alert(1)</script>' }, 'k1', 'x', 0],
      }),
    ).toString('base64url');
    for (const value of [`${forged}.AAAA`, forged, '%%%', 'a.b.c', '']) {
      const page = await request(app(SECRET).app)
        .get('/photos/3')
        .set('host', '127.0.0.1')
        .set('cookie', `sy_form=${value}`);
      expect(page.status).toBe(200);
      expect(formStateOf(page.text)).toBeUndefined();
      expect(page.text).not.toContain('alert(1)');
    }
  });

  test('a state too large for a cookie: the page itself answers the post, with the state', async () => {
    const text = 'x'.repeat(5_000);
    const res = await post(app(SECRET).app, text);
    expect(res.status).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(formStateOf(res.text)).toContain(text);
  });

  test.each(['', '&permanent'])(
    'a state too large for a cookie, on a page that redirects (%j): a 303, so the browser does not post again',
    async (permanent) => {
      const res = await post(
        app(SECRET).app,
        'x'.repeat(5_000),
        `/signals/redirect?to=%2Fphotos%2F2${permanent}`,
      );
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/photos/2');
    },
  );
});

test('callerAddress(): the socket peer, or behind a trusted proxy the entry the proxy wrote', async () => {
  const ask = (trustProxy: boolean) =>
    request(createApp({ modules: basicApp, actions: ACTIONS, actionOrigins: { trustProxy } }))
      .post(url('whoCalls'))
      .set('host', '127.0.0.1')
      .set('origin', ORIGIN)
      .set(ACTION_HEADER, '1')
      .set('x-forwarded-for', '198.51.100.1, 203.0.113.7')
      .set('content-type', 'application/json')
      .send('{"args":[]}');
  // The loopback peer: IPv4, or IPv6's as its /64 network.
  expect((await ask(false)).body.value).toMatch(/^127\.0\.0\.1$|^0:0:0:0::\/64$/);
  // The client wrote the first entry; the proxy appended the last.
  expect((await ask(true)).body.value).toBe('203.0.113.7');
  expect(() => callerAddress()).toThrow('only be called while a server action runs');
});
