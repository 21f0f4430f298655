/**
 * The app's `middleware.ts` over HTTP: it answers or lets go on, before documents, page data,
 * actions (never before the build's files), its redirects are checked and take the form the
 * request expects, and a throw is a 500 with a digest, reported.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReactNode } from 'react';
import request from 'supertest';
import { expect, test, vi } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { createApp } from '../../server/create-app';
import { cookies } from '../../server/request/request-api';
import type { Middleware } from '../../server/request/middleware';
import type { RouteModules } from '../../server/render/route-runtime';
import { ACTION_HEADER, actionUrl } from '../../shared/actions';
import { buildRouteTree } from '../../shared/route-tree';
import { redirect } from '../../shared/router-signals';

const SECRET = 'a-test-secret-that-is-long-enough-for-the-check';

const page = (render: (data: unknown) => ReactNode) => async () => ({
  default: ({ data }: { data: unknown }) => render(data),
});

function appWith(middleware: unknown, paths?: unknown, staticDir?: string) {
  const modules: RouteModules = {
    'layout.tsx': async () => ({
      default: ({ children }: { children: ReactNode }) => (
        <html lang="en">
          <body>{children}</body>
        </html>
      ),
    }),
    'page.tsx': page(() => <p>home</p>),
    'me/page.tsx': page((data) => <p id="me">{String(data)}</p>),
    'me/page.server.ts': async () => ({ load: () => cookies().get('who') ?? 'nobody' }),
    'media/page.tsx': page(() => <p id="media">media</p>),
    'middleware.ts': async () => ({ middleware, ...(paths === undefined ? {} : { paths }) }),
    // A route handler that says who the middleware let in.
    'api/who/route.ts': async () => ({
      GET: () => Response.json({ who: cookies().get('who') ?? 'nobody' }),
    }),
  };
  const logger = { error: vi.fn(), info: vi.fn() };
  const reporter = { report: vi.fn() };
  const id = actionId('app/actions.ts', 'ping');
  const actions = { [id]: async () => async () => 'pong' };
  const app = createApp({
    modules,
    actions,
    logger,
    reporter,
    secret: SECRET,
    mode: 'production',
    ...(staticDir ? { staticDir } : {}),
  });
  return { app, logger, reporter, actionPath: actionUrl(id) };
}

/** Signed-out visitors of /me go to the sign-in page, and everyone's answer gets a header. */
const guard: Middleware = (request, { cookies, headers }) => {
  headers.set('x-checked', 'yes');
  const { pathname } = new URL(request.url);
  if (pathname.startsWith('/me') && !cookies.get('session', { signed: true })) {
    return Response.redirect(new URL(`/sign-in?next=${encodeURIComponent(pathname)}`, request.url), 307);
  }
  cookies.set('who', 'ada');
};

test('a redirect answers a document with its status and Location, and page data with a soft redirect', async () => {
  const { app } = appWith(guard);
  const document = await request(app).get('/me');
  expect(document.status).toBe(307);
  expect(document.headers.location).toBe('/sign-in?next=%2Fme');
  expect(document.headers['cache-control']).toBe('no-store');

  const data = await request(app).get('/me?_sy=%2F');
  expect(data.status).toBe(200);
  expect(data.body).toMatchObject({ redirect: { location: '/sign-in?next=%2Fme', status: 307 } });
});

test('a redirect Response keeps its own headers and cookies, never its caching', async () => {
  const headers = new Headers({
    location: '/sign-in',
    'x-robots-tag': 'noindex',
    'cache-control': 'public, max-age=600',
    'content-type': 'text/plain',
  });
  headers.append('set-cookie', 'a=1');
  headers.append('set-cookie', 'b=2');
  const { app } = appWith(() => new Response('Moved', { status: 307, headers }));
  for (const path of ['/me', '/me?_sy=%2F']) {
    const res = await request(app).get(path);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(res.headers['cache-control']).toBe('no-store');
  }
  const document = await request(app).get('/me');
  expect([document.status, document.headers.location, document.headers['content-type']]).toEqual([
    307,
    '/sign-in',
    'text/plain; charset=utf-8',
  ]);
});

test("going on, the middleware's headers and cookies reach the answer, and a loader reads the cookie it set", async () => {
  const { app } = appWith(guard);
  const home = await request(app).get('/');
  expect(home.status).toBe(200);
  expect(home.headers['x-checked']).toBe('yes');
  expect(home.headers['set-cookie']).toEqual(['who=ada; Path=/; HttpOnly; SameSite=Lax']);

  const signedIn = await request(createApp({ modules: {}, secret: SECRET }))
    .get('/')
    .then(() => signedCookie());
  const me = await request(app).get('/me').set('cookie', `session=${signedIn}`);
  expect(me.status).toBe(200);
  expect(me.text).toContain('<p id="me">ada</p>');
});

test('a Response answers the request as it is, status, headers, cookies and body', async () => {
  const { app } = appWith(() => {
    const headers = new Headers({ 'content-type': 'application/json' });
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    return new Response(JSON.stringify({ error: 'no entry' }), { status: 403, headers });
  });
  const res = await request(app).get('/');
  expect(res.status).toBe(403);
  expect(res.body).toEqual({ error: 'no entry' });
  expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
  // The security headers every answer has.
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  const head = await request(app).head('/');
  expect(head.status).toBe(403);
  expect(head.text).toBeUndefined();
});

test('paths limits it to whole-segment prefixes', async () => {
  const { app } = appWith(() => new Response('stopped', { status: 403 }), ['/me']);
  expect((await request(app).get('/me')).status).toBe(403);
  expect((await request(app).get('/me/more')).status).toBe(403);
  expect((await request(app).get('/media')).status).toBe(200);
  expect((await request(app).get('/')).status).toBe(200);
});

test('paths cannot be stepped around by spelling the path another way', async () => {
  const { app } = appWith(() => new Response('stopped', { status: 403 }), ['/me', '/caf%C3%A9/']);
  // Each of these is /me to the router, which would serve its page.
  for (const path of ['/%6De', '/%6d%65', '//me', '/me/', '//me//more', '/me?x=1']) {
    expect([path, (await request(app).get(path)).status]).toEqual([path, 403]);
  }
  expect((await request(app).get('/caf%C3%A9/menu')).status).toBe(403);
  expect((await request(app).get('/%6Dedia')).status).toBe(200);
});

test('the request it sees has the path the router serves', async () => {
  const seen: string[] = [];
  const { app } = appWith((request: Request) => void seen.push(new URL(request.url).pathname));
  for (const path of ['/%6De', '//me//more', '/me/', '/tags/a%2Fb', '/u/a@b;c', '/caf%C3%A9', '/%25']) {
    await request(app).get(path);
  }
  expect(seen).toEqual(['/me', '/me/more', '/me/', '/tags/a%2Fb', '/u/a@b;c', '/caf%C3%A9', '/%25']);
});

test('it runs before actions: a script call gets its redirect as the action’s, a form post a 303', async () => {
  const { app, actionPath } = appWith(() => redirect('/sign-in'));
  const call = await request(app)
    .post(actionPath)
    .set('host', '127.0.0.1')
    .set('origin', 'http://127.0.0.1')
    .set(ACTION_HEADER, '1')
    .set('content-type', 'application/json')
    .send('{"args":[]}');
  expect(call.status).toBe(200);
  expect(call.body).toEqual({
    signal: { kind: 'redirect', location: '/sign-in', status: 307 },
    revalidated: [],
  });
  const form = await request(app).post(actionPath).type('form').send('a=1');
  expect(form.status).toBe(303);
  expect(form.headers.location).toBe('/sign-in');
});

test('it runs before route handlers: it answers for them, or lets them go on with what it set', async () => {
  const refused = await request(appWith(() => new Response('no', { status: 403 })).app).get('/api/who');
  expect([refused.status, refused.text]).toEqual([403, 'no']);
  const passed = await request(appWith(guard).app).get('/api/who');
  expect([passed.status, passed.body, passed.headers['x-checked']]).toEqual([200, { who: 'ada' }, 'yes']);
});

test('never before the build’s files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sy-mw-'));
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\n');
  const { app } = appWith(() => new Response('stopped', { status: 403 }), undefined, dir);
  const res = await request(app).get('/robots.txt');
  expect(res.status).toBe(200);
  expect(res.text).toBe('User-agent: *\n');
});

test.each([
  ['another site', 'https://evil.example/steal'],
  ['a protocol-relative URL', '//evil.example/steal'],
  ['a script URL', 'javascript:alert(1)'],
])('a redirect to %s is refused with a 400, for documents and page data', async (_name, target) => {
  const { app, logger } = appWith(() => new Response(null, { status: 302, headers: { location: target } }));
  for (const path of ['/', '/?_sy=%2F']) {
    const res = await request(app).get(path);
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
  }
  expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('refused redirect target'));
});

test('a throw is a 500 with a digest, logged and reported; page data and action calls get it as JSON', async () => {
  const { app, logger, reporter } = appWith(() => {
    throw new Error('session store down');
  });
  const res = await request(app).get('/');
  expect(res.status).toBe(500);
  const digest = /<code>([0-9a-f]{10})<\/code>/.exec(res.text)?.[1];
  expect(digest).toMatch(/^[0-9a-f]{10}$/);
  expect(res.text).not.toContain('session store down');
  expect(logger.error.mock.calls[0]![0]).toBe(`[switchyard] GET /: middleware.ts failed, digest ${digest}`);
  expect(reporter.report).toHaveBeenCalledWith(expect.any(Error), {
    route: null,
    digest,
    source: 'middleware',
  });

  const data = await request(app).get('/?_sy=%2F');
  expect(data.status).toBe(500);
  expect(data.body).toEqual({ error: 'server', digest: expect.stringMatching(/^[0-9a-f]{10}$/) });
});

test.each([
  [
    'a non-Response return',
    () => ({ status: 200 }),
    'must return a Response or nothing, not an object (Object)',
  ],
  ['no middleware export', 'not a function', 'must export a function named "middleware"'],
  [
    'a reserved header',
    (_r: Request, c: { headers: Headers }) => void c.headers.set('content-length', '1'),
    'framework sets',
  ],
])('%s is a 500 whose log names the file', async (_name, middleware, message) => {
  const { app, logger } = appWith(middleware);
  const res = await request(app).get('/');
  expect(res.status).toBe(500);
  expect(String(logger.error.mock.calls[0]![1])).toContain(message);
});

test('a TRACE, which a Web Request cannot carry, is the 405 it is without middleware: no error logged', async () => {
  const { app, logger, reporter } = appWith(() => new Response('stopped', { status: 403 }));
  const res = await request(app).trace('/');
  expect(res.status).toBe(405);
  expect(res.headers.allow).toBe('GET, HEAD');
  expect(logger.error).not.toHaveBeenCalled();
  expect(reporter.report).not.toHaveBeenCalled();
});

test('a Response whose body fails before its first byte is the middleware’s 500, named and reported', async () => {
  const failing = () =>
    new Response(
      new ReadableStream({
        pull(controller) {
          controller.error(new Error('upstream broke'));
        },
      }),
      { headers: { 'content-type': 'text/html' } },
    );
  const { app, logger, reporter } = appWith(failing);
  const res = await request(app).get('/');
  expect(res.status).toBe(500);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(String(logger.error.mock.calls[0]![0])).toContain('middleware.ts failed');
  expect(reporter.report).toHaveBeenCalledWith(
    expect.any(Error),
    expect.objectContaining({ source: 'middleware' }),
  );
});

test('bad paths are the app’s error, named', async () => {
  const { app, logger } = appWith(() => undefined, ['me']);
  expect((await request(app).get('/')).status).toBe(500);
  expect(String(logger.error.mock.calls[0]![1])).toContain(
    'middleware.ts: paths must be an array of path prefixes',
  );
});

test('middleware.ts lives at the root of the app directory only', () => {
  expect(() => buildRouteTree(['page.tsx', 'admin/middleware.ts', 'admin/page.tsx'])).toThrow(
    'admin/middleware.ts: middleware runs before every request, so it lives at the root of the app directory',
  );
});

/** A session cookie as the app signs it. */
async function signedCookie(): Promise<string> {
  const { CookieJar, cookieKey } = await import('../../server/request/cookies');
  const jar = new CookieJar(undefined, cookieKey(SECRET), false);
  jar.set('session', 'ada', { signed: true });
  return jar.setCookieLines()[0]!.split(';')[0]!.slice('session='.length);
}
