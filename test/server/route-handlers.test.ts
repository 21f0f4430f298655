/**
 * Route handlers through `createApp`: each method, HEAD and OPTIONS, 405, params, every way a
 * handler can fail, the cross-site refusal, the body limit, and what the Response becomes on the
 * wire (headers, cookies, a streamed body, a client that goes away).
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { describe, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import { cookies, RetryLater, type RouteHandler } from '../../server/index';
import type { SwitchyardOptions } from '../../server/options';
import { notFound, permanentRedirect, redirect } from '../../shared/router-signals';
import { deferred } from '../helpers/deferred';
import { DOCUMENT_ONLY_HEADERS } from './fixture-app';

const layout = () => import('../fixtures/basic/layout');
const page = () => import('../fixtures/basic/page');

/** Says what it got: the method, the params, the URL and the body. */
const echo: RouteHandler = async (req, { params }) =>
  Response.json({ method: req.method, params, url: req.url, body: await req.text() });

/** An app of a root layout and page, and these modules by file; `null` takes a file away. */
function app(
  routes: Record<string, Record<string, unknown> | null>,
  options: Partial<SwitchyardOptions> = {},
) {
  const logger = { error: vi.fn(), info: vi.fn() };
  const reporter = { report: vi.fn() };
  const modules = Object.fromEntries(
    Object.entries({ 'layout.tsx': layout, 'page.tsx': page, ...routes })
      .filter((entry): entry is [string, NonNullable<(typeof entry)[1]>] => entry[1] !== null)
      .map(([file, module]) => [file, typeof module === 'function' ? module : () => Promise.resolve(module)]),
  );
  return { app: createApp({ modules, logger, reporter, ...options }), logger, reporter };
}

const ALL = { GET: echo, POST: echo, PUT: echo, PATCH: echo, DELETE: echo };

describe('methods', () => {
  const { app: server } = app({ 'api/[id]/route.ts': ALL });

  test.each(['get', 'post', 'put', 'patch', 'delete'] as const)(
    '%s goes to its own export',
    async (method) => {
      const res = await request(server)[method]('/api/7?x=1').set('host', '127.0.0.1');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        method: method.toUpperCase(),
        params: { id: '7' },
        url: 'http://127.0.0.1/api/7?x=1',
        body: '',
      });
    },
  );

  test('a body reaches the handler as sent', async () => {
    const res = await request(server).post('/api/7').set('content-type', 'text/plain').send('héllo');
    expect(res.body.body).toBe('héllo');
  });

  test('HEAD is answered by GET, with its status and headers, and its body is never read', async () => {
    const seen: string[] = [];
    const cancelled = vi.fn();
    const { app: headApp } = app({
      'r/route.ts': {
        GET: (req: Request) => {
          seen.push(req.method);
          // A long body that fails if read through: a HEAD must not read it.
          let pulls = 0;
          const body = new ReadableStream({
            pull: (controller) =>
              ++pulls > 100
                ? controller.error(new Error('read through'))
                : controller.enqueue(new Uint8Array(1024)),
            cancel: cancelled,
          });
          return new Response(req.method === 'HEAD' ? body : 'a body', {
            status: 203,
            headers: { 'x-kind': 'art', 'content-type': 'text/plain' },
          });
        },
      },
    });
    const get = await request(headApp).get('/r');
    const head = await request(headApp).head('/r');
    expect(seen).toEqual(['GET', 'HEAD']);
    expect(head.status).toBe(203);
    expect(head.headers['x-kind']).toBe('art');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.text).toBeUndefined();
    expect(cancelled).toHaveBeenCalled();
  });

  test('a method not exported is a 405 that lists the ones that are', async () => {
    const { app: some } = app({ 'r/route.ts': { GET: echo, POST: echo } });
    for (const method of ['put', 'delete', 'patch'] as const) {
      const res = await request(some)[method]('/r');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  test('OPTIONS is answered with the methods there are, unless the module answers it', async () => {
    const { app: auto } = app({
      'a/route.ts': { POST: echo },
      'b/route.ts': { OPTIONS: () => new Response('mine') },
    });
    const res = await request(auto).options('/a');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('POST, OPTIONS');
    expect((await request(auto).options('/b')).text).toBe('mine');
  });
});

describe('matching', () => {
  const { app: server } = app({
    'files/[...path]/route.ts': { GET: echo },
    '(api)/search/[[...q]]/route.ts': { GET: echo },
    'blog/[slug]/page.tsx': {},
    'blog/feed/route.ts': { GET: () => new Response('feed') },
  });

  test.each([
    ['/files/a/b%2Fc', { path: ['a', 'b/c'] }],
    ['/search', { q: [] }],
    ['/search/caf%C3%A9/2', { q: ['café', '2'] }],
  ])('%s: params decoded as a page gets them', async (url, params) => {
    expect((await request(server).get(url)).body.params).toEqual(params);
  });

  test('a static route handler wins over a dynamic page; any other URL stays a page', async () => {
    expect((await request(server).get('/blog/feed')).text).toBe('feed');
    expect((await request(server).post('/blog/other')).status).toBe(405);
  });

  test('page data for the URL runs no handler: the client is told to load it as a document', async () => {
    const get = vi.fn(() => new Response('no'));
    const { app: dataApp } = app({ 'api/route.ts': { GET: get } });
    const res = await request(dataApp).get('/api?q=1&_sy=%2F&_syp=auto');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ buildId: 'development', url: '/api?q=1', status: 200, document: true });
    expect(get).not.toHaveBeenCalled();
    // JSON like all page data: none of the headers only a document reads.
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    for (const name of DOCUMENT_ONLY_HEADERS) expect(res.headers[name]).toBeUndefined();
  });

  test('a route handler at the root never shows as a component of the not-found page', async () => {
    const { app: rootApp } = app({ 'page.tsx': null, 'route.ts': { GET: echo } });
    const res = await request(rootApp).get('/nope?_sy=%2F');
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body.segments)).not.toContain('route.ts');
  });

  test('a page and a route handler in one folder stop the app from starting, naming both files', () => {
    expect(() => app({ 'page.tsx': {}, 'x/page.tsx': {}, 'x/route.ts': { GET: echo } })).toThrow(
      /x\/page\.tsx and x\/route\.ts are in one folder/,
    );
  });
});

describe('failures', () => {
  test.each([
    ['returns nothing', () => undefined, 'GET returned undefined, not a Response'],
    ['returns plain data', () => ({ ok: true }), 'GET returned an object (Object), not a Response'],
    [
      'throws',
      () => {
        throw new Error('database on fire');
      },
      'database on fire',
    ],
  ])(
    'a handler that %s: 500 with a digest, logged naming its file, reported',
    async (_name, GET, message) => {
      const { app: server, logger, reporter } = app({ 'api/[id]/route.ts': { GET } });
      const res = await request(server).get('/api/1');
      expect(res.status).toBe(500);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({ error: 'server', digest: expect.stringMatching(/^[0-9a-f]{10}$/) });
      const [line, error] = logger.error.mock.calls[0]!;
      expect(line).toBe(`[switchyard] GET /api/1 (api/[id]/route.ts) failed, digest ${res.body.digest}`);
      expect(String(error)).toContain(message);
      expect(reporter.report).toHaveBeenCalledWith(error, {
        route: '/api/[id]',
        digest: res.body.digest,
        source: 'handler',
      });
    },
  );

  test('an export of a method that is no function: 500, and the log says which', async () => {
    const { app: server, logger } = app({ 'r/route.ts': { GET: 'hello' } });
    expect((await request(server).get('/r')).status).toBe(500);
    expect(String(logger.error.mock.calls[0]![1])).toContain('r/route.ts exports GET as a string');
  });

  test('RetryLater: its status, Retry-After and message, never reported', async () => {
    const { app: server, reporter } = app({
      'r/route.ts': {
        POST: () => {
          throw new RetryLater(429, 7, 'Slow down.');
        },
      },
    });
    const res = await request(server).post('/r');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('7');
    expect(res.text).toBe('Too Many Requests: Slow down.');
    expect(reporter.report).not.toHaveBeenCalled();
  });

  test('signals: redirect() is a 307, permanentRedirect() a 308, notFound() a 404', async () => {
    const { app: server, reporter } = app({
      'a/route.ts': { GET: () => redirect('/photos/1?x=1') },
      'b/route.ts': { GET: () => permanentRedirect('/new') },
      'c/route.ts': { GET: () => notFound() },
    });
    const a = await request(server).get('/a');
    expect([a.status, a.headers.location]).toEqual([307, '/photos/1?x=1']);
    const b = await request(server).get('/b');
    expect([b.status, b.headers.location]).toEqual([308, '/new']);
    expect((await request(server).get('/c')).status).toBe(404);
    expect(reporter.report).not.toHaveBeenCalled();
  });

  test.each(['//evil.example', 'https://evil.example/', '/\\evil.example'])(
    'a redirect to %s is refused with a 400 and no Location',
    async (target) => {
      const { app: server } = app({ 'r/route.ts': { GET: () => redirect(target) } });
      const res = await request(server).get('/r');
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
    },
  );
});

describe('requests from other sites', () => {
  const POST = vi.fn(() => new Response('done'));
  const { app: server } = app({
    'mine/route.ts': { GET: POST, POST, PUT: POST, PATCH: POST, DELETE: POST },
    'open/route.ts': { POST, allowCrossOrigin: true },
  });
  const send = (
    path: string,
    headers: Record<string, string>,
    method: 'post' | 'put' | 'patch' | 'delete' | 'get' = 'post',
  ) => request(server)[method](path).set('host', 'app.example').set(headers);

  test.each([
    [{ origin: 'http://evil.example' }, 'Origin http://evil.example is not allowed'],
    [{ origin: 'http://app.example', 'sec-fetch-site': 'cross-site' }, 'cross-site request'],
    [{ referer: 'http://evil.example/page' }, 'Referer is from another origin'],
    [{ origin: 'null' }, 'Origin null is not allowed'],
  ])('%j is refused with a 403, the handler never runs', async (headers, reason) => {
    POST.mockClear();
    for (const method of ['post', 'put', 'patch', 'delete'] as const) {
      const res = await send('/mine', headers, method);
      expect(res.status).toBe(403);
      expect(res.text).toBe(`Forbidden: ${reason}`);
    }
    expect(POST).not.toHaveBeenCalled();
  });

  test.each([
    ['a page of this site', { origin: 'http://app.example', 'sec-fetch-site': 'same-origin' }],
    ['a client that is no browser (no Origin, Referer or Sec-Fetch-Site)', {}],
  ])('%s passes', async (_name, headers) => {
    expect((await send('/mine', headers)).status).toBe(200);
  });

  test('GET is never refused, and allowCrossOrigin opens the module to every site', async () => {
    expect((await send('/mine', { origin: 'http://evil.example' }, 'get')).status).toBe(200);
    const res = await send('/open', { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(200);
  });
});

describe('the body limit', () => {
  const POST = vi.fn(async (req: Request) => new Response(String((await req.arrayBuffer()).byteLength)));
  const { app: server } = app({ 'up/route.ts': { POST } });

  test('1 MiB passes; 1 MiB + 1 declared is a 413 before the handler runs', async () => {
    expect((await request(server).post('/up').send(Buffer.alloc(1_048_576))).text).toBe('1048576');
    POST.mockClear();
    const res = await request(server).post('/up').send(Buffer.alloc(1_048_577));
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(POST).not.toHaveBeenCalled();
  });

  test('a chunked body with no Content-Length is a 413 once it passes 1 MiB', async () => {
    POST.mockClear();
    const http = server.listen(0, '127.0.0.1');
    await new Promise((resolve) => http.once('listening', resolve));
    const { port } = http.address() as AddressInfo;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, method: 'POST', path: '/up', headers: { 'transfer-encoding': 'chunked' } },
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
    expect(POST).not.toHaveBeenCalled();
  });
});

describe('the answer on the wire', () => {
  test('status text, every header, each Set-Cookie on its own line, and cookies() beside them', async () => {
    const { app: server } = app({
      'r/route.ts': {
        GET: () => {
          cookies().set('scoped', '1');
          const headers = new Headers({ 'x-one': '1', 'cache-control': 'public, max-age=60' });
          headers.append('set-cookie', 'a=1; Path=/; HttpOnly');
          headers.append('set-cookie', 'b=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT');
          return new Response('ok', { status: 201, statusText: 'Made It', headers });
        },
      },
    });
    const res = await request(server).get('/r');
    expect(res.status).toBe(201);
    expect((res as unknown as { res: { statusMessage: string } }).res.statusMessage).toBe('Made It');
    expect(res.headers['x-one']).toBe('1');
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers['set-cookie']).toEqual([
      'a=1; Path=/; HttpOnly',
      'b=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT',
      expect.stringMatching(/^scoped=1;/),
    ]);
  });

  test('a cookie both in the Response and set through cookies() goes out once: the Response’s', async () => {
    const { app: server } = app({
      'auth/login/route.ts': {
        POST: () => {
          cookies().set('session', 'from-cookies');
          cookies().set('theme', 'dark');
          cookies().delete('seen', { path: '/auth' });
          cookies().set('lang', 'fr', { domain: 'example.com' });
          cookies().set('region', 'eu', { domain: 'example.com' });
          const headers = new Headers();
          // Path=/ as cookies() writes it: the same cookie.
          headers.append('set-cookie', 'session=from-response; Path=/; HttpOnly');
          // No Path: the request's directory, `/auth`, as the deletion names.
          headers.append('set-cookie', 'seen=1');
          // The same domain, spelled another way: the same cookie.
          headers.append('set-cookie', 'lang=en; Path=/; Domain=.EXAMPLE.com');
          // Another path, or this host alone: another cookie, and both go out.
          headers.append('set-cookie', 'theme=light; Path=/auth');
          headers.append('set-cookie', 'region=us; Path=/');
          return new Response('ok', { headers });
        },
      },
    });
    const res = await request(server).post('/auth/login');
    const lines = res.headers['set-cookie'] as unknown as string[];
    expect(lines).toEqual([
      'session=from-response; Path=/; HttpOnly',
      'seen=1',
      'lang=en; Path=/; Domain=.EXAMPLE.com',
      'theme=light; Path=/auth',
      'region=us; Path=/',
      expect.stringMatching(/^theme=dark; Path=\/;/),
      expect.stringMatching(/^region=eu; Domain=example\.com; Path=\/;/),
    ]);
  });

  test('the security headers, and in production the no-script policy unless the handler sets its own', async () => {
    const { app: server } = app(
      {
        'plain/route.ts': { GET: () => new Response('x') },
        'own/route.ts': {
          GET: () => new Response('x', { headers: { 'content-security-policy': "default-src 'self'" } }),
        },
      },
      { mode: 'production' },
    );
    const plain = await request(server).get('/plain');
    expect(plain.headers['x-content-type-options']).toBe('nosniff');
    expect(plain.headers['x-frame-options']).toBe('DENY');
    expect(plain.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await request(server).get('/own')).headers['content-security-policy']).toBe("default-src 'self'");
  });

  test('a streamed body arrives whole, chunk by chunk', async () => {
    const { app: server } = app({
      'r/route.ts': {
        GET: () =>
          new Response(
            new ReadableStream({
              start(controller) {
                for (const part of ['one ', 'two ', 'three'])
                  controller.enqueue(new TextEncoder().encode(part));
                controller.close();
              },
            }),
          ),
      },
    });
    expect((await request(server).get('/r')).text).toBe('one two three');
  });

  test('a client that goes away cancels the body and aborts the request’s signal', async () => {
    const cancelled = deferred<void>();
    const aborted = deferred<void>();
    const { app: server, logger } = app({
      'r/route.ts': {
        GET: (req: Request) => {
          req.signal.addEventListener('abort', () => aborted.resolve());
          // An endless body: only the client leaving can end it.
          return new Response(
            new ReadableStream({
              pull: (controller) => controller.enqueue(new Uint8Array(16_384)),
              cancel: () => cancelled.resolve(),
            }),
          );
        },
      },
    });
    const http = server.listen(0, '127.0.0.1');
    await new Promise((resolve) => http.once('listening', resolve));
    const { port } = http.address() as AddressInfo;
    const req = httpRequest({ host: '127.0.0.1', port, path: '/r' }, (response) => {
      response.once('data', () => req.destroy());
    });
    req.on('error', () => {});
    req.end();
    await Promise.all([cancelled.promise, aborted.promise]);
    http.close();
    expect(logger.error).not.toHaveBeenCalled();
  });

  /** A body whose stream fails at its `failAt`th read, after the reads before it gave a chunk each. */
  const failingBody = (failAt: number) => {
    let reads = 0;
    return new Response(
      new ReadableStream({
        pull(controller) {
          if (++reads < failAt) controller.enqueue(new TextEncoder().encode('partial'));
          else controller.error(new Error('source broke'));
        },
      }),
      { headers: { 'x-handler': '1', 'set-cookie': 'a=1' } },
    );
  };

  test('a body that fails midway cuts the response, logged and reported', async () => {
    const { app: server, logger, reporter } = app({ 'r/route.ts': { GET: () => failingBody(2) } });
    await expect(request(server).get('/r')).rejects.toThrow();
    expect(logger.error.mock.calls[0]![0]).toMatch(
      /^\[switchyard\] GET \/r \(r\/route\.ts\) failed, digest /,
    );
    expect(reporter.report).toHaveBeenCalledTimes(1);
  });

  test('a body that fails before its first byte is a 500 carrying none of the handler’s headers', async () => {
    const { app: server } = app({ 'r/route.ts': { GET: () => failingBody(1) } });
    const res = await request(server).get('/r');
    expect(res.status).toBe(500);
    expect(res.headers['x-handler']).toBeUndefined();
    expect(res.headers['set-cookie']).toBeUndefined();
  });
});
