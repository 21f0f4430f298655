/**
 * switchyard-react/testing on the `basic` fixture: the app's own cache windows, history without
 * requests, a superseded navigation, actions that redirect or are not the app's, a first load
 * that redirects, and the clock's order of timers. The docs' three examples are the scaffold's
 * test (bin/template/test/app.test.ts), which this project runs too.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test, vi } from 'vitest';
import { createTestApp } from 'switchyard-react/testing';
import { actionId } from '../../server/actions/action-registry';
import { createTestClock } from '../../server/testing/test-clock';
import { actionUrl } from '../../shared/actions';
import { goTo, whoCalls } from '../fixtures/basic/actions';
import { setCookie } from '../fixtures/cookie-jar/actions';
import { openGate, whenWaiting } from '../fixtures/gate';

const appDir = new URL('../fixtures/basic', import.meta.url);
const quiet = { logger: { error: vi.fn(), info: vi.fn() } };
const app = await createTestApp({ appDir, server: quiet });

describe('createTestApp', () => {
  test("the app's own cache windows apply: basic's entries are stale after 10 s", async () => {
    const router = await app.router({ url: '/' });
    await router.prefetch('/photos/7');
    await router.idle();
    const entry = () => router.snapshot().entries.find((e) => e.key === '/photos/7');
    expect(entry()).toMatchObject({ status: 'fresh', data: 'settled', policy: { freshMs: 10_000 } });
    app.clock.advance(9_999);
    expect(entry()?.status).toBe('fresh');
    app.clock.advance(1);
    expect(entry()?.status).toBe('stale');
  });

  test('idle() waits for work nobody awaits: a prefetch started and left', async () => {
    const router = await app.router({ url: '/' });
    void router.prefetch('/photos/9');
    await router.idle();
    expect(router.snapshot()).toMatchObject({
      entries: [{ key: '/photos/9', data: 'settled' }],
      queue: { running: [], waiting: [] },
    });
  });

  test('a navigation fetches its page; back and forward show the pages held, with no request', async () => {
    const router = await app.router({ url: '/' });
    const before = app.requests.length;
    expect(await router.push('/photos/2?q=x')).toEqual({
      status: 'committed',
      url: '/photos/2?q=x',
      redirected: false,
    });
    expect(app.requests.slice(before)).toEqual([{ method: 'GET', url: '/photos/2?q=x', kind: 'page-data' }]);
    expect(await router.back()).toMatchObject({ status: 'committed', url: '/' });
    expect(await router.html()).toContain('<h1>Home</h1>');
    expect(await router.forward()).toMatchObject({ status: 'committed', url: '/photos/2?q=x' });
    expect(app.requests.length).toBe(before + 1);
    await expect(router.forward()).rejects.toThrow('no history entry 1 from /photos/2?q=x');
  });

  test('a newer navigation supersedes one whose data is still on its way', async () => {
    const router = await app.router({ url: '/' });
    const waiting = whenWaiting('slow-load');
    const slow = router.push('/lab/slow-load');
    await waiting;
    expect(await router.push('/photos/1')).toMatchObject({ status: 'committed', url: '/photos/1' });
    expect(await slow).toEqual({ status: 'aborted', reason: 'superseded' });
    openGate('slow-load');
    await router.idle();
    expect(router.url).toBe('/photos/1');
  });

  test('an action that redirects navigates there, after its call', async () => {
    const router = await app.router({ url: '/photos/7' });
    const before = app.requests.length;
    expect(await router.action(goTo, '/photos/3')).toBeUndefined();
    expect(router.url).toBe('/photos/3');
    expect(app.requests.slice(before)).toMatchObject([
      { method: 'POST', kind: 'action', action: 'goTo' },
      { method: 'GET', kind: 'page-data', url: '/photos/3' },
    ]);
  });

  test('a function that is not one of the app’s actions is refused, with nothing sent', async () => {
    const router = await app.router({ url: '/' });
    const before = app.requests.length;
    await expect(router.action(async () => 'mine')).rejects.toThrow(
      'router.action() takes a server action of this app',
    );
    expect(app.requests.length).toBe(before);
  });

  test('a first load that redirects lands where it leads; one to another site is an error', async () => {
    const router = await app.router({ url: '/signals/redirect?to=/photos/4' });
    expect(router.url).toBe('/photos/4');
    await expect(app.router({ url: '/signals/redirect?to=https://elsewhere.example/' })).rejects.toThrow(
      'the first load of /signals/redirect?to=https://elsewhere.example/ answered 400: Bad request',
    );
    await expect(app.router({ url: 'https://elsewhere.example/' })).rejects.toThrow(
      'router({ url }) takes a path on this app',
    );
  });

  test('actions have no rate limit unless given one, even when the option is there but undefined', async () => {
    const unlimited = await createTestApp({ appDir, server: { ...quiet, actionRateLimit: undefined } });
    const router = await unlimited.router({ url: '/' });
    // The production default allows 30 calls in 10 s, and the test clock does not move here.
    for (let call = 0; call < 30; call++) await router.action(whoCalls);
    expect(await router.action(whoCalls)).toBe('127.0.0.1');
  });

  test('the server answers app.fetch in the same process, with no port', async () => {
    const response = await app.fetch('/photos/5?_sy=', { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ pattern: '/photos/[id]', params: { id: '5' } });
    expect((await app.fetch('/photos/5', { method: 'DELETE' })).status).toBe(405);
  });

  test('app.fetch follows redirects as fetch does, unless told not to', async () => {
    const href = '/signals/redirect?to=/photos/4';
    const followed = await app.fetch(href);
    expect([followed.status, followed.url, followed.redirected]).toEqual([
      200,
      'http://localhost/photos/4',
      true,
    ]);
    const manual = await app.fetch(href, { redirect: 'manual' });
    expect([manual.status, manual.url, manual.redirected]).toEqual([307, `http://localhost${href}`, false]);
    expect(manual.headers.get('location')).toBe('/photos/4');
    await expect(app.fetch(href, { redirect: 'error' })).rejects.toThrow(TypeError);
    // A form's post answered 303 goes on as a GET, without its body: a POST would get a 405.
    const posted = await app.fetch(actionUrl(actionId('basic/actions.ts', 'goTo')), {
      method: 'POST',
      body: new URLSearchParams({ $bound: '["/photos/3"]' }),
    });
    expect([posted.status, posted.url, posted.redirected]).toEqual([200, 'http://localhost/photos/3', true]);
  });
});

describe('the cookies routers share', () => {
  test('a cookie goes only to its path, and expires on the test clock', async () => {
    const jar = await createTestApp({
      appDir: new URL('../fixtures/cookie-jar', import.meta.url),
      server: quiet,
    });
    const router = await jar.router({ url: '/' });
    await router.action(setCookie, 'session', 'ada', { maxAge: 60 });
    await router.action(setCookie, 'admin', 'yes', { path: '/admin' });
    // Each router's first load is one request, with the cookies a new tab would send.
    const cookieAt = async (url: string) =>
      /<p id="cookie">(.*?)<\/p>/.exec(await (await jar.router({ url })).html())?.[1];
    expect(await cookieAt('/')).toBe('session=ada');
    expect(await cookieAt('/admin')).toBe('admin=yes; session=ada');
    expect(await cookieAt('/admin/users')).toBe('admin=yes; session=ada');
    expect(await cookieAt('/administrator')).toBe('session=ada');
    jar.clock.advance(59_999);
    expect(await cookieAt('/')).toBe('session=ada');
    jar.clock.advance(1);
    expect(await cookieAt('/')).toBe('');
    expect(await cookieAt('/admin')).toBe('admin=yes');
  });

  test('a redirect chain keeps each hop’s cookies and sends each hop those for its URL', async () => {
    const jar = await createTestApp({
      appDir: new URL('../fixtures/cookie-jar', import.meta.url),
      server: quiet,
    });
    const shown = await jar.fetch('/hop/one');
    expect(shown.url).toBe('http://localhost/hop/show');
    // `second` was set by the middle hop for `/hop`, `first` by the first for `/`.
    expect(await shown.json()).toEqual({ cookie: 'second=2; first=1' });
    // A router of the app has them too, each where its path allows.
    const cookieAt = async (url: string) =>
      /<p id="cookie">(.*?)<\/p>/.exec(await (await jar.router({ url })).html())?.[1];
    expect(await cookieAt('/')).toBe('first=1');
    expect(await cookieAt('/hop')).toBe('second=2; first=1');
  });

  test('app.fetch with credentials: omit neither sends nor keeps cookies; a cookie header given goes to every hop', async () => {
    const jar = await createTestApp({
      appDir: new URL('../fixtures/cookie-jar', import.meta.url),
      server: quiet,
    });
    const omitted = await jar.fetch('/hop/one', { credentials: 'omit', headers: { cookie: 'mine=0' } });
    expect(await omitted.json()).toEqual({ cookie: 'mine=0' });
    expect(await (await jar.fetch('/hop/show')).json()).toEqual({ cookie: '' });
    const given = await jar.fetch('/hop/one', { headers: { cookie: 'mine=0' } });
    expect(await given.json()).toEqual({ cookie: 'mine=0; second=2; first=1' });
  });
});

describe('the test clock', () => {
  test('fires the timers that fall due, in order, each at its own time', () => {
    const clock = createTestClock(0);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b at ${clock.now()}`), 20);
    clock.setTimeout(() => {
      fired.push(`a at ${clock.now()}`);
      clock.setTimeout(() => fired.push(`a2 at ${clock.now()}`), 5);
    }, 10);
    const never = clock.setTimeout(() => fired.push('cleared'), 15);
    clock.clearTimeout(never);
    clock.setTimeout(() => fired.push('later'), 31);
    clock.advance(30);
    expect(fired).toEqual(['a at 10', 'a2 at 15', 'b at 20']);
    expect(clock.now()).toBe(30);
  });

  test('refuses to go back or by something that is not a number', () => {
    const clock = createTestClock(0);
    expect(() => clock.advance(-1)).toThrow('advance takes a number of milliseconds of 0 or more, got -1');
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
  });
});

test('the docs show the scaffold’s test, which this project runs', () => {
  const docs = readFileSync(new URL('../../docs/testing.md', import.meta.url), 'utf8');
  const example = readFileSync(new URL('../../bin/template/test/app.test.ts', import.meta.url), 'utf8');
  const blocks = [...docs.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const tests = blocks.filter((block) => block.startsWith('test('));
  expect(tests).toHaveLength(3);
  for (const block of tests) expect(example).toContain(block);
});
