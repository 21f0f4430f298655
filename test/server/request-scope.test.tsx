/**
 * `cookies()`, `headers()`, `setStatus()` and `setHeader()` over HTTP: what a loader or an action
 * sets reaches the answer, documents and page data alike, and signed cookies read as absent when
 * anyone but the server wrote them.
 */
import { AsyncResource } from 'node:async_hooks';
import type { AddressInfo } from 'node:net';
import type { ReactNode } from 'react';
import express from 'express';
import request from 'supertest';
import { describe, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import type { Request, Response } from 'express';
import { CookieJar, cookieKey, type CookieOptions } from '../../server/request/cookies';
import {
  commitAnswer,
  currentScope,
  pageStatus,
  requestScope,
  type RequestScope,
} from '../../server/request/request-scope';
import { cookies, headers, setHeader, setStatus } from '../../server/request/request-api';
import type { RouteModules } from '../../server/render/route-runtime';
import { Suspense } from 'react';
import { ACTION_HEADER, actionUrl } from '../../shared/actions';
import { actionId } from '../../server/actions/action-registry';
import { notFound, redirect } from '../../shared/router-signals';
import { RetryLater } from '../../server/http/retry-later';

const SECRET = 'a-test-secret-that-is-long-enough-for-the-check';

/** Opened by the test once the answer's headers arrived: the late loader runs on after that. */
let shellSent = deferred();

const page = (render: (data: unknown) => ReactNode) => async () => ({
  default: ({ data }: { data: unknown }) => render(data),
});
const loader = (load: () => unknown) => async () => ({ load });

const modules: RouteModules = {
  'layout.tsx': async () => ({
    default: ({ children }: { children: ReactNode }) => (
      <html lang="en">
        <body>{children}</body>
      </html>
    ),
  }),
  'visit/page.tsx': page((data) => <p id="visits">{String(data)}</p>),
  'visit/page.server.ts': loader(() => {
    const seen = Number(cookies().get('visits', { signed: true }) ?? 0) + 1;
    cookies().set('visits', String(seen), { signed: true });
    cookies().set('theme', 'dark', { httpOnly: false, maxAge: 60 });
    return seen;
  }),
  'api/route.ts': async () => ({
    GET: () => {
      cookies().set('from-handler', 'yes');
      const headers = new Headers({ 'content-type': 'application/json' });
      headers.append('set-cookie', 'own=1');
      return new Response(JSON.stringify({ lang: headers.get('x') ?? null }), { headers });
    },
  }),
  'created/page.tsx': page(() => <p>made</p>),
  'created/page.server.ts': loader(() => {
    setStatus(201);
    setHeader('cache-control', 'public, max-age=60');
    setHeader('x-made-by', 'loader');
    setHeader('vary', 'Cookie');
    return null;
  }),
  'gone/page.tsx': page(() => <p>gone</p>),
  'gone/page.server.ts': loader(() => setStatus(410)),
  'echo/page.tsx': page((data) => <p id="echo">{String(data)}</p>),
  'echo/page.server.ts': loader(() => {
    const read = headers();
    return `${read.get('accept-language')}|${cookies().get('plain')}|${cookies().getAll().length}`;
  }),
  'readonly/page.tsx': page((data) => <p id="readonly">{String(data)}</p>),
  'readonly/page.server.ts': loader(() => {
    try {
      headers().set('x', 'y');
      return 'changed';
    } catch (error) {
      return (error as Error).message;
    }
  }),
  'bad-status/page.tsx': page(() => <p>never</p>),
  'bad-status/page.server.ts': loader(() => setStatus(302)),
  'no-content/page.tsx': page(() => <p>never</p>),
  'no-content/page.server.ts': loader(() => setStatus(204)),
  'bad-header/page.tsx': page(() => <p>never</p>),
  'bad-header/page.server.ts': loader(() => setHeader('x-evil', 'a\r\nset-cookie: owned=1')),
  'reserved/page.tsx': page(() => <p>never</p>),
  'reserved/page.server.ts': loader(() => setHeader('Set-Cookie', 'owned=1')),
  'oversized/page.tsx': page(() => <p>never</p>),
  'oversized/page.server.ts': loader(() => cookies().set('big', 'x'.repeat(5000))),
  'deleted/page.tsx': page(() => <p>deleted</p>),
  'deleted/page.server.ts': loader(() => {
    cookies().delete('visits');
    // A partitioned (CHIPS) cookie is only replaced by a line that is partitioned too.
    cookies().delete('embed', { partitioned: true, sameSite: 'none', secure: true });
    return cookies().get('visits') ?? 'absent';
  }),
  // A layout's loader makes its pages cacheable: not the framework's own answers below it.
  'cached/layout.tsx': async () => ({ default: ({ children }: { children: ReactNode }) => children }),
  'cached/layout.server.ts': loader(() => {
    setHeader('cache-control', 'public, max-age=3600');
    setHeader('x-made-by', 'layout');
    return null;
  }),
  'cached/page.tsx': page(() => <p>cached</p>),
  'cached/gone/page.tsx': page(() => <p>gone</p>),
  'cached/gone/page.server.ts': loader(() => setStatus(410)),
  'cached/boom/page.tsx': page(() => <p>never</p>),
  'cached/boom/page.server.ts': loader(() => {
    throw new Error('the database is down');
  }),
  'cached/busy/page.tsx': page(() => <p>never</p>),
  'cached/busy/page.server.ts': loader(() => {
    throw new RetryLater(503, 5, 'busy');
  }),
  'cached/away/page.tsx': page(() => <p>never</p>),
  'cached/away/page.server.ts': loader(() => redirect('/visit')),
  'cached/missing/page.tsx': page(() => <p>never</p>),
  'cached/missing/page.server.ts': loader(() => notFound()),
  'cached/caught/error.tsx': page(() => <p>caught</p>),
  'cached/caught/page.tsx': page(() => <p>never</p>),
  'cached/caught/page.server.ts': loader(() => {
    setHeader('cache-control', 'public, max-age=60');
    throw new Error('the database is down');
  }),
  'cached/gone-after/page.tsx': page(() => <p>never</p>),
  'cached/gone-after/page.server.ts': loader(() => {
    setHeader('cache-control', 'public, max-age=60');
    notFound();
  }),
  'cached/off-site/page.tsx': page(() => <p>never</p>),
  'cached/off-site/page.server.ts': loader(() => redirect('https://evil.example/')),
  // A modal over the shelf: its page data from the shelf is the intercepted answer.
  'shelf/layout.tsx': async () => ({
    default: ({ children, modal }: { children: ReactNode; modal: ReactNode }) => (
      <>
        {children}
        {modal}
      </>
    ),
  }),
  'shelf/page.tsx': page(() => <p>shelf</p>),
  'shelf/@modal/default.tsx': async () => ({ default: () => null }),
  'shelf/@modal/(.)item/page.tsx': page(() => <p>item in a modal</p>),
  'shelf/@modal/(.)item/page.server.ts': loader(() => {
    setStatus(203);
    setHeader('x-made-by', 'modal');
    cookies().set('opened', 'modal');
    return null;
  }),
  'shelf/item/page.tsx': page(() => <p>item</p>),
  // Below the loading state, this loader runs after the shell went out.
  'late/layout.tsx': async () => ({
    default: ({ children }: { children: ReactNode }) => (
      <Suspense fallback={<p>wait</p>}>{children}</Suspense>
    ),
  }),
  'late/loading.tsx': page(() => <p>loading</p>),
  'late/page.tsx': page((data) => <p id="late">{String(data)}</p>),
  'late/page.server.ts': loader(async () => {
    await shellSent.promise;
    const attempt = (call: () => void) => {
      try {
        call();
        return 'applied';
      } catch (error) {
        return (error as Error).message.split(' (')[0];
      }
    };
    return [
      attempt(() => setStatus(404)),
      attempt(() => setHeader('x-late', '1')),
      attempt(() => cookies().set('late', '1')),
    ].join(' | ');
  }),
};

function app(mode: 'production' | 'development' = 'production') {
  const logger = { error: vi.fn(), info: vi.fn() };
  return { app: createApp({ modules, logger, secret: SECRET, mode }), logger };
}

const cookiesOf = (res: request.Response): string[] =>
  (res.headers['set-cookie'] as unknown as string[]) ?? [];
const valueOf = (lines: string[], name: string) =>
  lines
    .find((l) => l.startsWith(`${name}=`))
    ?.split(';')[0]!
    .slice(name.length + 1);

describe('cookies', () => {
  test('a loader sets cookies with safe defaults; a signed one counts visits', async () => {
    const server = app().app;
    const first = await request(server).get('/visit');
    expect(first.status).toBe(200);
    expect(first.text).toContain('<p id="visits">1</p>');
    const lines = cookiesOf(first);
    const visits = lines.find((l) => l.startsWith('visits='))!;
    expect(visits).toMatch(/; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(lines.find((l) => l.startsWith('theme='))).toBe('theme=dark; Max-Age=60; Path=/; SameSite=Lax');

    const second = await request(server)
      .get('/visit')
      .set('cookie', `visits=${valueOf(lines, 'visits')}`);
    expect(second.text).toContain('<p id="visits">2</p>');
  });

  test('over https (a trusted proxy says so) cookies are Secure', async () => {
    const server = createApp({ modules, secret: SECRET, actionOrigins: { trustProxy: true } });
    const res = await request(server).get('/visit').set('x-forwarded-proto', 'https');
    expect(cookiesOf(res).every((l) => l.includes('; Secure'))).toBe(true);
    const plain = await request(server).get('/visit');
    expect(cookiesOf(plain).some((l) => l.includes('Secure'))).toBe(false);
  });

  test.each([
    ['a changed value', (v: string) => v.replace(/^5/, '9')],
    ['a cut signature', (v: string) => v.slice(0, -3)],
    ['no signature', (v: string) => v.split('.')[0]!],
    ['a signature from another cookie name', () => signedWith('other', '5')],
    ['an oversized value', (v: string) => `${'1'.repeat(5000)}${v}`],
    [
      'a value signed with another secret',
      () => signedWith('visits', '5', 'another-secret-another-secret-another-secret'),
    ],
  ])('a tampered signed cookie reads as absent, never an error: %s', async (_name, tamper) => {
    const good = signedWith('visits', '5');
    // The genuine value is read, so the tampered one is refused for its tampering alone.
    const genuine = await request(app().app)
      .get('/visit')
      .set('cookie', `visits=${encodeURIComponent(good)}`);
    expect(genuine.text).toContain('<p id="visits">6</p>');
    const res = await request(app().app)
      .get('/visit')
      .set('cookie', `visits=${encodeURIComponent(tamper(good))}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<p id="visits">1</p>');
  });

  test('a deleted cookie expires on the answer and reads as absent at once', async () => {
    const res = await request(app().app).get('/deleted').set('cookie', 'visits=abc');
    expect(res.text).toContain('absent');
    expect(cookiesOf(res)).toEqual([
      'visits=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax',
      'embed=; Max-Age=0; Path=/; HttpOnly; Secure; Partitioned; SameSite=None',
    ]);
  });

  test('headers() and cookies() read the request; headers() cannot be changed', async () => {
    const res = await request(app().app)
      .get('/echo')
      .set('accept-language', 'sv')
      .set('cookie', 'plain=hello%20there; other=1');
    expect(res.text).toContain('sv|hello there|2');
    const readonly = await request(app().app).get('/readonly');
    expect(readonly.text).toContain('cannot be changed');
  });

  test('a cookie browsers would drop is an error naming it, logged with a digest', async () => {
    const { app: server, logger } = app();
    const res = await request(server).get('/oversized');
    expect(res.status).toBe(500);
    expect(logger.error.mock.calls[0]![1]).toBeInstanceOf(RangeError);
    expect(String(logger.error.mock.calls[0]![1])).toContain('cookie "big" is 5004 bytes');
  });

  test('outside a request the functions say where they work', () => {
    expect(() => cookies()).toThrow(/cookies\(\) can only be called while a request is answered/);
    expect(() => setStatus(201)).toThrow(/setStatus\(\) can only be called/);
  });

  test("a scope keeps the request's headers, never the request (timers it outlives would keep the render)", () => {
    const req = { headers: { cookie: 'a=1', 'x-b': '2' }, socket: { encrypted: true } } as unknown as Request;
    const res = { writeHead: () => res } as unknown as Response;
    const logger = { error: () => {}, info: () => {} };
    let scope: RequestScope | undefined;
    requestScope(express(), { secret: SECRET, trustProxy: false, mode: 'production', logger })(
      req,
      res,
      () => {
        scope = currentScope('test');
      },
    );
    expect(Object.values(scope!)).not.toContain(req);
    expect(scope!.cookies.get('a')).toBe('1');
    // The socket said TLS: a cookie set goes out Secure.
    scope!.cookies.set('c', '3');
    expect(scope!.cookies.setCookieLines()[0]).toContain('Secure');
  });

  // Every answer passes `writeHead`: one function on the app's response prototype catches them
  // all, where a wrapper made per answer cost a closure and a property per request.
  test('the app’s answers keep their scope without a wrapper of their own', async () => {
    const server = express();
    server.use(
      requestScope(server, { secret: SECRET, trustProxy: false, mode: 'production', logger: console }),
    );
    let ownWriteHead: boolean | undefined;
    server.get('/', (_req, res) => {
      setHeader('x-made-by', 'loader');
      ownWriteHead = Object.hasOwn(res, 'writeHead');
      res.end('ok');
    });
    const res = await request(server).get('/');
    expect([res.status, res.headers['x-made-by'], ownWriteHead]).toEqual([200, 'loader', false]);
  });

  // Middleware in front of the app (morgan, compression, express-session, through `on-headers`)
  // puts a `writeHead` of its own on each response, which Node calls in place of the prototype's.
  test('behind middleware that wraps writeHead, page data still gets the cookies a loader set', async () => {
    const outer = express();
    let wrapped = 0;
    outer.use((_req, res, next) => {
      const writeHead = res.writeHead;
      res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
        wrapped++;
        return writeHead.apply(this, args);
      } as Response['writeHead'];
      next();
    });
    outer.use(app().app);
    const res = await request(outer).get('/visit?_sy=%2F');
    expect([res.status, valueOf(cookiesOf(res), 'theme'), wrapped]).toEqual([200, 'dark', 1]);
  });

  test('an answer committed outside the request’s async context still gets its status, headers and cookies', async () => {
    // Made at module level: a callback run through it has no request scope in its context, as
    // when a renderer calls back from a context of its own.
    const outside = new AsyncResource('outside the request');
    const server = express();
    server.use(
      requestScope(server, { secret: SECRET, trustProxy: false, mode: 'production', logger: console }),
    );
    server.get('/', (_req, res) => {
      setStatus(201);
      setHeader('x-made-by', 'loader');
      cookies().set('a', '1');
      outside.runInAsyncScope(() => {
        expect(() => currentScope('here')).toThrow(/can only be called while a request is answered/);
        res.statusCode = pageStatus(res, 200);
        commitAnswer(res);
        // Applied now, before any byte is written: what comes later is too late.
        expect([res.statusCode, res.getHeader('x-made-by')]).toEqual([201, 'loader']);
        expect(res.getHeader('set-cookie')).toEqual([expect.stringMatching(/^a=1; Path=\//)]);
        res.end('ok');
      });
    });
    const res = await request(server).get('/');
    expect([res.status, res.headers['x-made-by']]).toEqual([201, 'loader']);
  });

  test('the jar on its own: a cookie read back, a tampered one absent', () => {
    const jar = new CookieJar('a=1', cookieKey(SECRET), false);
    jar.set('b', '2', { signed: true });
    expect(jar.get('b', { signed: true })).toBe('2');
    expect(jar.get('a', { signed: true })).toBeUndefined();
    expect(jar.getAll().map((c) => c.name)).toEqual(['a', 'b']);
    expect(() => jar.set('bad name', 'x')).toThrow(TypeError);
    expect(() => jar.set('n', 'x', { sameSite: 'none' })).toThrow(/SameSite=None needs Secure/);
    expect(() => jar.set('n', 'x', { partitioned: true })).toThrow(/Partitioned needs Secure/);
    expect(() => jar.delete('n', { partitioned: true })).toThrow(/Partitioned needs Secure/);
    expect(() => jar.set('n', 'x', { partitioned: true, secure: true })).not.toThrow();
  });

  test('a path that does not start with "/" is an error, as a browser would file the cookie elsewhere', () => {
    const jar = new CookieJar(undefined, cookieKey(SECRET), false);
    expect(() => jar.set('a', '1', { path: 'shop' })).toThrow(
      'cookie "a": path "shop" does not start with "/", so browsers ignore it and keep the cookie under the request\'s directory; give a path from the root, such as "/shop"',
    );
    // An empty one too: the line would go out without a Path.
    expect(() => jar.set('a', '1', { path: '' })).toThrow('cookie "a": path "" does not start with "/"');
    expect(() => jar.delete('a', { path: 'shop' })).toThrow(
      'cookie "a": path "shop" does not start with "/"',
    );
    expect(jar.setCookieLines()).toEqual([]);
    expect(jar.get('a')).toBeUndefined();
  });

  test('one name on two paths is two cookies: both go out, each replaced and deleted on its own', () => {
    const jar = new CookieJar('a=old', cookieKey(SECRET), false);
    jar.set('a', '1', { path: '/x' });
    jar.set('a', '2');
    jar.set('a', '3', { domain: 'example.com' });
    expect(jar.setCookieLines()).toEqual([
      'a=1; Path=/x; HttpOnly; SameSite=Lax',
      'a=2; Path=/; HttpOnly; SameSite=Lax',
      'a=3; Domain=example.com; Path=/; HttpOnly; SameSite=Lax',
    ]);
    // The value set last for the name is what reads back.
    expect(jar.get('a')).toBe('3');

    // The same name, path and domain again replaces that line alone; a leading dot names the same domain.
    jar.set('a', '4', { path: '/x' });
    jar.delete('a', { domain: '.Example.com' });
    expect(jar.setCookieLines()).toEqual([
      'a=2; Path=/; HttpOnly; SameSite=Lax',
      'a=4; Path=/x; HttpOnly; SameSite=Lax',
      'a=; Max-Age=0; Domain=.Example.com; Path=/; HttpOnly; SameSite=Lax',
    ]);
    expect(jar.get('a')).toBe('4');

    // Deleting one leaves the other standing, and it reads back.
    jar.delete('a', { path: '/x' });
    expect(jar.setCookieLines()).toEqual([
      'a=2; Path=/; HttpOnly; SameSite=Lax',
      'a=; Max-Age=0; Domain=.Example.com; Path=/; HttpOnly; SameSite=Lax',
      'a=; Max-Age=0; Path=/x; HttpOnly; SameSite=Lax',
    ]);
    expect(jar.get('a')).toBe('2');
    expect(jar.getAll()).toEqual([{ name: 'a', value: '2' }]);

    // All of them deleted: absent, not the value the request came with.
    jar.delete('a');
    expect(jar.get('a')).toBeUndefined();
    expect(jar.getAll()).toEqual([]);
  });

  test('an option given as undefined keeps its default, when setting and when deleting', () => {
    // What JavaScript, or a tsconfig without exactOptionalPropertyTypes, lets a caller pass:
    // `{ path, domain }` from variables that are unset.
    const unset = {
      path: undefined,
      domain: undefined,
      httpOnly: undefined,
      secure: undefined,
      sameSite: undefined,
    } as unknown as CookieOptions;
    const jar = new CookieJar(undefined, cookieKey(SECRET), true);
    jar.set('b', '1', unset);
    jar.delete('session', unset);
    expect(jar.setCookieLines()).toEqual([
      'b=1; Path=/; HttpOnly; Secure; SameSite=Lax',
      'session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax',
    ]);
  });
});

describe('actions', () => {
  test('a cookie set by an action goes out with its redirect, with JavaScript and without', async () => {
    const id = actionId('app/actions.ts', 'signIn');
    const actions = {
      [id]: async () => async () => {
        cookies().set('session', 'ada', { signed: true });
        throw redirect('/visit');
      },
    };
    const server = createApp({ modules, actions, secret: SECRET });
    const base = () =>
      request(server).post(actionUrl(id)).set('host', '127.0.0.1').set('origin', 'http://127.0.0.1');
    const script = await base()
      .set(ACTION_HEADER, '1')
      .set('content-type', 'application/json')
      .send('{"args":[]}');
    expect(script.status).toBe(200);
    expect(script.body.signal).toMatchObject({ kind: 'redirect', location: '/visit' });
    const form = await base().type('form').send('a=1');
    expect(form.status).toBe(303);
    for (const res of [script, form]) {
      expect(cookiesOf(res)).toEqual([
        expect.stringMatching(/^session=ada\.[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax$/),
      ]);
    }
  });
});

describe('route handlers', () => {
  test('cookies set in a handler join the cookies of its own Response', async () => {
    const res = await request(app().app).get('/api');
    expect(res.status).toBe(200);
    expect(cookiesOf(res)).toEqual(['own=1', 'from-handler=yes; Path=/; HttpOnly; SameSite=Lax']);
  });
});

describe('status and headers', () => {
  test("a loader's status and headers apply to the document and to page data alike", async () => {
    const server = app().app;
    for (const path of ['/created', '/created?_sy=%2F']) {
      const res = await request(server).get(path);
      expect(res.status).toBe(201);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.headers['x-made-by']).toBe('loader');
      // Vary lists what the answer depends on: the app's field joins the server's own.
      expect(res.headers.vary).toBe('accept-encoding, Cookie');
    }
    expect((await request(server).get('/gone')).status).toBe(410);
  });

  test("a loader's cookie reaches page data as it reaches the document", async () => {
    const server = app().app;
    for (const path of ['/visit', '/visit?_sy=%2F']) {
      const res = await request(server).get(path);
      expect(res.status).toBe(200);
      expect(valueOf(cookiesOf(res), 'theme')).toBe('dark');
    }
  });

  test("an intercepted page's loader sets the status, headers and cookies of its answer too", async () => {
    const res = await request(app().app).get('/shelf/item?_sy=%2Fshelf');
    expect(res.body.intercept?.slot).toBe('modal');
    expect([res.status, res.headers['x-made-by'], valueOf(cookiesOf(res), 'opened')]).toEqual([
      203,
      'modal',
      'modal',
    ]);
  });

  test("the framework's own answers stay no-store whatever cache-control a loader set", async () => {
    const { app: server } = app();
    const cacheOf = async (path: string) => {
      const res = await request(server).get(path);
      return `${res.status} ${res.headers['cache-control']} ${res.headers['x-made-by']}`;
    };
    const answers: string[] = [];
    for (const path of ['/cached', '/cached/gone', '/cached/boom', '/cached/busy', '/cached/away']) {
      answers.push(await cacheOf(path), await cacheOf(`${path}?_sy=%2F`));
    }
    for (const path of ['/cached/missing', '/cached/off-site']) answers.push(await cacheOf(path));
    expect(answers).toEqual([
      // What the app answers, a status it set included, it may let caches keep.
      '200 public, max-age=3600 layout',
      '200 public, max-age=3600 layout',
      '410 public, max-age=3600 layout',
      '410 public, max-age=3600 layout',
      // A failure, a "try later", a redirect, a page not there, a refused target: never.
      '500 no-store layout',
      '500 no-store layout',
      '503 no-store layout',
      '503 no-store layout',
      '307 no-store layout',
      '200 no-store layout',
      '404 no-store layout',
      '400 no-store layout',
    ]);
  });

  test('a page not there or failed: the document and its page data both keep no-store over the loader’s', async () => {
    const { app: server } = app();
    const cacheOf = async (path: string) => {
      const res = await request(server).get(path);
      return `${res.status} ${res.headers['cache-control']}`;
    };
    for (const [path, status] of [
      ['/cached/gone-after', 404],
      ['/cached/missing', 404],
      ['/cached/caught', 500],
    ] as const) {
      expect(await cacheOf(path)).toBe(`${status} no-store`);
      expect(await cacheOf(`${path}?_sy=%2F`)).toBe(`${status} no-store`);
    }
  });

  test('a redirect status, a header with a line break, or a reserved header is refused with a clear error', async () => {
    const { app: server, logger } = app();
    for (const path of ['/bad-status', '/bad-header', '/reserved']) {
      const res = await request(server).get(path);
      expect(res.status).toBe(500);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.headers['x-evil']).toBeUndefined();
    }
    const messages = logger.error.mock.calls.map((call) => String(call[1]));
    expect(messages[0]).toContain('throw redirect(url)');
    expect(messages[1]).toMatch(/TypeError/);
    expect(messages[2]).toContain('use cookies().set()');
  });

  test('a status that forbids a body (204, 205) is refused: a page and its page data always have one', async () => {
    for (const code of [204, 205]) {
      expect(() => setStatus(code)).toThrow(RangeError);
      expect(() => setStatus(code)).toThrow(`setStatus(${code}): a page always has a body`);
    }
    const { app: server, logger } = app();
    for (const path of ['/no-content', '/no-content?_sy=%2F']) {
      expect((await request(server).get(path)).status).toBe(500);
    }
    expect(String(logger.error.mock.calls[0]![1])).toContain('route handler');
  });

  test('after the shell went out: an error in development, a logged warning in production', async () => {
    const dev = app('development');
    const devRes = await lateAnswer(dev.app);
    expect(devRes.status).toBe(200);
    // Status, header and cookie alike: each call says it came too late.
    for (const call of [
      'setStatus(404)',
      'setHeader(&quot;x-late&quot;)',
      'cookies().set(&quot;late&quot;)',
    ]) {
      expect(devRes.text).toContain(`${call} came after the response`);
    }
    expect(devRes.text).not.toContain('applied');

    const prod = app('production');
    const prodRes = await lateAnswer(prod.app);
    expect(prodRes.status).toBe(200);
    expect(prodRes.text).toContain('applied | applied | applied');
    for (const call of [/setStatus\(404\)/, /setHeader\("x-late"\)/, /cookies\(\)\.set\("late"\)/]) {
      expect(prod.logger.error).toHaveBeenCalledWith(
        expect.stringMatching(new RegExp(`^\\[switchyard\\] warning: ${call.source} came after`)),
      );
    }
  });

  test('once the status is chosen, before a compressed head reaches the socket: too late too, and said', async () => {
    const prod = app('production');
    // The loader goes on the moment the document's status is set, while the first compressed
    // bytes (and with them the head) are still being made.
    const outer = express();
    outer.use((_req, res, next) => {
      let status = res.statusCode;
      Object.defineProperty(res, 'statusCode', {
        get: () => status,
        set: (code: number) => {
          status = code;
          shellSent.resolve();
        },
      });
      next();
    });
    outer.use(prod.app);
    shellSent = deferred();
    const http = outer.listen(0, '127.0.0.1');
    await new Promise((resolve) => http.once('listening', resolve));
    try {
      const { port } = http.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/late`, { headers: { 'accept-encoding': 'br' } });
      expect(res.headers.get('content-encoding')).toBe('br');
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('applied');
    } finally {
      http.close();
    }
    expect(prod.logger.error).toHaveBeenCalledWith(
      expect.stringMatching(/^\[switchyard\] warning: setStatus\(404\) came after/),
    );
  });
});

function signedWith(name: string, value: string, secret = SECRET): string {
  const jar = new CookieJar(undefined, cookieKey(secret), false);
  jar.set(name, value, { signed: true });
  return decodeURIComponent(valueOf(jar.setCookieLines(), name)!);
}

/** `/late`, letting its loader go on only once the answer's status line has arrived. */
async function lateAnswer(server: ReturnType<typeof createApp>): Promise<{ status: number; text: string }> {
  shellSent = deferred();
  const http = server.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  try {
    const { port } = http.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/late`);
    shellSent.resolve();
    return { status: res.status, text: await res.text() };
  } finally {
    http.close();
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
