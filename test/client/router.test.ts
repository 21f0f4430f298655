/**
 * The router core with injected history, fetch, modules, timers and clock. No React, no DOM.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { devtoolsSnapshot } from '../../client/devtools/snapshot';
import { createRouter } from '../../client/router';
import type { InterceptedAnswer, PageDataResponse } from '../../shared/page-data';
import type { PageState, SlotState } from '../../shared/page-state';
import { FRESH_WINDOW_MS, STALE_WINDOW_MS } from '../../shared/constants';
import { deferred } from '../helpers/deferred';
import {
  answer,
  BUILD,
  flush,
  harness,
  jsonResponse,
  ORIGIN,
  pageState,
  prefetchAnswer,
  start,
  type Harness,
} from '../helpers/router-harness';

// The core must work with React absent: importing it here would throw.
vi.mock('react', () => {
  throw new Error('the router core imported React');
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

type TestRouter = ReturnType<typeof start>;

/** `path` prefetched, answered with `prefetched`, then left until its entry is stale (past 30 s, within 300 s). */
async function prefetchedThenStale(h: Harness, router: TestRouter, path: string, prefetched: unknown) {
  void router.prefetch(path);
  await flush();
  h.fetches[0]!.reply.resolve(jsonResponse(prefetched));
  await flush();
  h.clock.now += 100_000;
}

/**
 * Away to `/` (answered with `home`), and back to `path` 10 s later: the requests made before
 * the way back, to tell whether it asked for any.
 */
async function awayAndBack(h: Harness, router: TestRouter, path: string, home: unknown): Promise<number> {
  const away = router.navigate('/');
  h.fetches.at(-1)!.reply.resolve(jsonResponse(home));
  await away;
  h.clock.now += 10_000;
  const requests = h.fetches.length;
  await router.navigate(path);
  await flush();
  return requests;
}

describe('navigate', () => {
  test('one page-data request, one history push, layout data kept from the held page', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/photos/3?q=1');
    expect(router.getSnapshot().pending).toBe(true);
    expect(h.fetches.map((f) => f.url)).toEqual(['/photos/3?q=1&_sy=%2F']);
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/photos/3?q=1', 'photos')));
    await done;
    const snapshot = router.getSnapshot();
    expect(snapshot).toMatchObject({
      href: '/photos/3?q=1',
      commit: 1,
      pending: false,
      scroll: { kind: 'top' },
    });
    expect(snapshot.state.segments[0]!.layoutData).toEqual({ user: 'ada' });
    expect(snapshot.state.segments[1]!.pageData).toEqual({ page: 'photos' });
    expect(snapshot.modules.get('photos/page.tsx')).toBe('component of photos/page.tsx');
    expect(h.history.map((e) => `${e.op} ${e.href} ${e.state.key}`)).toEqual([
      'replace / k1', // the initial entry gets a key
      'replace / k1', // its scroll position is saved before leaving
      'push /photos/3?q=1 k2',
    ]);
  });

  test('a newer navigation aborts the older one, which never commits', async () => {
    const h = harness();
    const router = start(h);
    const first = router.navigate('/a');
    const second = router.navigate('/b');
    expect(h.fetches[0]!.signal.aborted).toBe(true);
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await Promise.all([first, second]);
    expect(router.getSnapshot().href).toBe('/b');
    expect(h.history.filter((e) => e.op === 'push').map((e) => e.href)).toEqual(['/b']);
    expect(h.assigned).toEqual([]);
    expect(h.errors).toEqual([]);
  });

  test('an older navigation that settles after a newer one started is dropped', async () => {
    const h = harness();
    h.effects.fetch = (url) => {
      const reply = deferred<Response>();
      h.fetches.push({ url, signal: new AbortController().signal, reply }); // ignores its signal
      return reply.promise;
    };
    const router = start(h);
    const first = router.navigate('/a');
    const second = router.navigate('/b');
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await second;
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/a', 'a')));
    await first;
    expect(router.getSnapshot().href).toBe('/b');
    expect(router.getSnapshot().commit).toBe(1);
  });

  test('route scripts not loaded after 3800 ms: a hard navigation to the target', async () => {
    const h = harness();
    h.script = deferred();
    const router = start(h);
    const done = router.navigate('/slow');
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/slow', 'slow')));
    await vi.advanceTimersByTimeAsync(3_799);
    expect(h.assigned).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(h.assigned).toEqual([`${ORIGIN}/slow`]);
    expect(router.getSnapshot().commit).toBe(0);
  });

  test('the timeout is configurable', async () => {
    const h = harness();
    h.script = deferred();
    const router = createRouter({
      initial: { state: pageState('/', 'feed'), modules: new Map(), history: null },
      effects: h.effects,
      routeScriptTimeoutMs: 100,
    });
    void router.navigate('/slow');
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/slow', 'slow')));
    await vi.advanceTimersByTimeAsync(99);
    expect(h.assigned).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.assigned).toEqual([`${ORIGIN}/slow`]);
  });

  test.each([
    ['a 500', () => jsonResponse({ error: 'server', digest: 'abc' }, 500)],
    ['a 502 from a proxy', () => new Response('bad gateway', { status: 502 })],
    [
      'the wrong content type',
      () => new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    ],
    ['a build id mismatch', () => jsonResponse({ ...answer('/x', 'x'), buildId: 'build-2' })],
    [
      'malformed JSON',
      () => new Response('{', { status: 200, headers: { 'content-type': 'application/json' } }),
    ],
  ])('%s: a hard navigation to the target', async (_name, response) => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/x');
    h.fetches[0]!.reply.resolve(response());
    await done;
    expect(h.assigned).toEqual([`${ORIGIN}/x`]);
    expect(router.getSnapshot().commit).toBe(0);
  });

  test('a network error: a hard navigation to the target', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/x');
    h.fetches[0]!.reply.reject(new TypeError('Failed to fetch'));
    await done;
    expect(h.assigned).toEqual([`${ORIGIN}/x`]);
  });

  test('never a reload loop: the same URL is not hard-loaded twice within 10 s', async () => {
    const h = harness();
    h.stored.value = JSON.stringify({ href: `${ORIGIN}/x`, at: h.clock.now - 9_999 });
    const router = start(h);
    const done = router.navigate('/x');
    h.fetches[0]!.reply.resolve(new Response('', { status: 500 }));
    await done;
    expect(h.assigned).toEqual([]);
    expect(h.errors).toEqual([`switchyard: not reloading ${ORIGIN}/x again (page data failed)`]);
    expect(router.getSnapshot().pending).toBe(false);

    h.clock.now += 1;
    const again = router.navigate('/x');
    h.fetches[1]!.reply.resolve(new Response('', { status: 500 }));
    await again;
    expect(h.assigned).toEqual([`${ORIGIN}/x`]);
  });

  test('a 404 page-data answer renders the not-found page', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/photos/999');
    h.fetches[0]!.reply.resolve(
      jsonResponse({ ...answer('/photos/999', 'photos'), status: 404, notFound: 'not-found.tsx' }, 404),
    );
    await done;
    expect(router.getSnapshot().state.notFound).toBe('not-found.tsx');
    expect(h.assigned).toEqual([]);
  });

  test('other origins leave the app at once', async () => {
    const h = harness();
    const router = start(h);
    await router.navigate('https://elsewhere.example/x');
    expect(h.assigned).toEqual(['https://elsewhere.example/x']);
    expect(h.fetches).toEqual([]);
  });

  test('a hash on the same page: no request, a history entry, a scroll to the anchor', async () => {
    const h = harness();
    const router = start(h);
    await router.navigate('/#comments');
    expect(h.fetches).toEqual([]);
    expect(router.getSnapshot()).toMatchObject({
      href: '/#comments',
      commit: 1,
      scroll: { kind: 'hash', id: 'comments' },
    });
    expect(h.history.at(-1)).toMatchObject({ op: 'push', href: '/#comments' });
  });

  test('replace and scroll: false', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/b', { replace: true, scroll: false });
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await done;
    expect(h.history.filter((e) => e.op === 'push')).toEqual([]);
    expect(h.history.at(-1)).toMatchObject({ op: 'replace', href: '/b' });
    expect(router.getSnapshot().scroll).toEqual({ kind: 'keep' });
  });
});

describe('refresh', () => {
  test('refetches the current page with no origin, replaces its data, pushes nothing', async () => {
    const h = harness();
    const router = start(h);
    const done = router.refresh();
    expect(h.fetches.map((f) => f.url)).toEqual(['/?_sy=']);
    h.fetches[0]!.reply.resolve(jsonResponse({ ...pageState('/', 'feed', { user: 'grace' }), status: 200 }));
    await done;
    expect(router.getSnapshot().state.segments[0]!.layoutData).toEqual({ user: 'grace' });
    expect(router.getSnapshot().scroll).toEqual({ kind: 'keep' });
    expect(h.history.filter((e) => e.op === 'push')).toEqual([]);
  });
});

describe('back and forward', () => {
  test('a held page comes back with no request and its scroll position, its marked containers too', async () => {
    const h = harness();
    const router = start(h);
    const elements = { 'docs-nav': { top: 120, left: 0 } };
    h.scroll = { x: 0, y: 640, elements };
    const done = router.navigate('/b');
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await done;
    h.scroll = { x: 0, y: 50 };

    h.location.href = `${ORIGIN}/`; // the browser went back
    await router.onPopState({ key: 'k1' });
    expect(h.fetches).toHaveLength(1);
    expect(router.getSnapshot()).toMatchObject({ href: '/' });
    expect(router.getSnapshot().scroll).toEqual({ kind: 'restore', x: 0, y: 640, elements });
    expect(router.getSnapshot().state.segments[1]!.dir).toBe('feed');

    h.location.href = `${ORIGIN}/b`; // and forward again
    await router.onPopState({ key: 'k2' });
    expect(h.fetches).toHaveLength(1);
    expect(router.getSnapshot()).toMatchObject({ href: '/b', scroll: { kind: 'restore', x: 0, y: 50 } });
  });

  test('an entry the router does not hold (after a reload) is fetched, and history is left alone', async () => {
    const h = harness();
    const router = start(h);
    h.location.href = `${ORIGIN}/old`;
    const done = router.onPopState({ key: 'from-before-reload', scroll: { x: 0, y: 300 } });
    expect(h.fetches.map((f) => f.url)).toEqual(['/old?_sy=%2F']);
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/old', 'old')));
    await done;
    expect(router.getSnapshot()).toMatchObject({ href: '/old', scroll: { kind: 'restore', x: 0, y: 300 } });
    expect(h.history.filter((e) => e.op === 'push')).toEqual([]);
  });

  test('back() and forward() go through the browser history', () => {
    const h = harness();
    const router = start(h);
    router.back();
    router.forward();
    expect(h.history.slice(-2).map((e) => e.op)).toEqual(['go -1', 'go 1']);
  });
});

/** A prefetch answer: the whole state, partial down to a loading state when `pendingAt` is set. */
describe('navigation with the prefetch cache', () => {
  test('a link to the page on screen, or to a place on it, is not prefetched: the page is here', async () => {
    const h = harness();
    const router = start(h);
    for (const href of ['#comments', '/', '/#top', `${ORIGIN}/`]) {
      expect(await router.prefetch(href, 'full', 'viewport')).toEqual({ status: 'skipped' });
    }
    // Other search params are another page.
    void router.prefetch('/?tab=2');
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/?tab=2&_sy=%2F&_syp=auto']);
  });

  test('a fresh entry renders with no request at navigation', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/b');
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=%2F&_syp=auto']);
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    await flush();
    h.clock.now += 29_999;
    await router.navigate('/b');
    expect(h.fetches).toHaveLength(1);
    expect(router.getSnapshot()).toMatchObject({ href: '/b', pending: false, commit: 1 });
    expect(devtoolsSnapshot(router).entries).toEqual([
      expect.objectContaining({ key: '/b', kind: 'auto', status: 'reusable', lastUsedTime: h.clock.now }),
    ]);
  });

  test('an auto entry that stops at a loading state: that state at once, then one request for the rest', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/slow');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/slow', 'slow', 1)));
    await flush();
    const done = router.navigate('/slow');
    await flush();
    expect(router.getSnapshot().state.pendingAt).toBe(1); // the loading state shows
    expect(h.fetches.map((f) => f.url)).toEqual(['/slow?_sy=%2F&_syp=auto', '/slow?_sy=&_syp=rest']);
    const rest = prefetchAnswer('/slow', 'slow');
    const { layoutData: _l, ...root } = rest.segments[0]!;
    h.fetches[1]!.reply.resolve(
      jsonResponse({ ...rest, segments: [{ ...root, reuseLayoutData: true }, rest.segments[1]!] }),
    );
    await done; // settled at the commit of the loading state
    await flush(); // the rest fills it in after
    const state = router.getSnapshot().state;
    expect(state.pendingAt).toBeUndefined();
    expect(state.segments[0]!.layoutData).toEqual({ user: 'ada' });
    expect(state.segments[1]!.pageData).toEqual({ page: 'slow' });
    expect(h.history.filter((e) => e.op === 'push').map((e) => e.href)).toEqual(['/slow']);
  });

  test('a stale auto entry: its loading state at once, then all data again; the use resets lastUsedTime', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/slow');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/slow', 'slow', 1)));
    await flush();
    h.clock.now += 30_000;
    expect(devtoolsSnapshot(router).entries[0]!.status).toBe('stale');
    const done = router.navigate('/slow');
    await flush();
    expect(router.getSnapshot().state.pendingAt).toBe(1);
    expect(h.fetches.at(-1)!.url).toBe('/slow?_sy=&_syp=full');
    h.fetches.at(-1)!.reply.resolve(jsonResponse(prefetchAnswer('/slow', 'slow')));
    await done; // settled at the commit of the loading state
    await flush(); // the rest fills it in after
    expect(router.getSnapshot().state.pendingAt).toBeUndefined();
    expect(devtoolsSnapshot(router).entries[0]).toMatchObject({
      status: 'reusable',
      lastUsedTime: h.clock.now,
    });
  });

  test('a stale whole entry fetched again is replaced by what came: the next click within 30 s shows the new data', async () => {
    const h = harness();
    const router = start(h);
    const withData = (version: string) => {
      const page = prefetchAnswer('/b', 'b');
      return { ...page, segments: [page.segments[0]!, { ...page.segments[1]!, pageData: { version } }] };
    };
    await prefetchedThenStale(h, router, '/b', withData('old'));
    const first = router.navigate('/b');
    await flush();
    expect(h.fetches.at(-1)!.url).toBe('/b?_sy=&_syp=full');
    h.fetches.at(-1)!.reply.resolve(jsonResponse(withData('new')));
    await first;
    const requests = await awayAndBack(h, router, '/b', answer('/', 'feed'));
    expect(h.fetches).toHaveLength(requests);
    expect(router.getSnapshot().state.segments[1]!.pageData).toEqual({ version: 'new' });
    expect(devtoolsSnapshot(router).entries.find((e) => e.key === '/b')).toMatchObject({ kind: 'temporary' });
  });

  test('a stale partial entry filled in again is replaced by what came: the next click within 30 s shows it', async () => {
    const h = harness();
    const router = start(h);
    await prefetchedThenStale(h, router, '/b', prefetchAnswer('/b', 'b', 1));
    await router.navigate('/b');
    await flush();
    expect(h.fetches.at(-1)!.url).toBe('/b?_sy=&_syp=full');
    const whole = prefetchAnswer('/b', 'b');
    whole.segments[1]!.pageData = { version: 'new' };
    h.fetches.at(-1)!.reply.resolve(jsonResponse(whole));
    await flush();
    const requests = await awayAndBack(h, router, '/b', answer('/', 'feed'));
    expect(h.fetches).toHaveLength(requests);
    expect(router.getSnapshot().state.pendingAt).toBeUndefined();
    expect(router.getSnapshot().state.segments[1]!.pageData).toEqual({ version: 'new' });
    expect(devtoolsSnapshot(router).entries.find((e) => e.key === '/b')).toMatchObject({ kind: 'temporary' });
  });

  test('an expired entry is pruned and the navigation fetches a temporary entry at once', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/b');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    await flush();
    h.clock.now += 300_000;
    const done = router.navigate('/b');
    expect(h.fetches.at(-1)!.url).toBe('/b?_sy=%2F');
    expect(devtoolsSnapshot(router).entries).toEqual([
      expect.objectContaining({ key: '/b', kind: 'temporary', status: 'reusable' }),
    ]);
    h.fetches.at(-1)!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await done;
    expect(router.getSnapshot().href).toBe('/b');
  });

  test('a temporary entry serves the next navigation to that URL within 30 s', async () => {
    const h = harness();
    const router = start(h);
    const first = router.navigate('/b');
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await first;
    const second = router.navigate('/');
    expect(h.fetches).toHaveLength(2);
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/', 'feed')));
    await second;
    h.clock.now += 29_000;
    await router.navigate('/b');
    expect(h.fetches).toHaveLength(2);
    expect(router.getSnapshot().href).toBe('/b');
  });

  test('a navigation cut short by a newer one leaves no entry: its link is prefetched again', async () => {
    const h = harness();
    const router = start(h);
    const first = router.navigate('/b');
    const second = router.navigate('/c');
    expect(h.fetches[0]!.signal.aborted).toBe(true);
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/c', 'c')));
    await Promise.all([first, second]);
    await flush();
    expect(devtoolsSnapshot(router).entries.map((e) => e.key)).toEqual(['/c']);
    const hover = router.prefetch('/b', 'auto', 'intent');
    await flush();
    expect(h.fetches.at(-1)!.url).toBe('/b?_sy=%2Fc&_syp=auto');
    h.fetches.at(-1)!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    expect(await hover).toEqual({ status: 'fresh' });
  });

  test('at most 5 prefetches at once; a navigation to a queued one starts it at once, and the rest stop', async () => {
    const h = harness();
    const router = start(h);
    for (let i = 1; i <= 7; i++) void router.prefetch(`/p/${i}`);
    await flush();
    expect(h.fetches.map((f) => f.url.split('?')[0])).toEqual(['/p/1', '/p/2', '/p/3', '/p/4', '/p/5']);
    expect(devtoolsSnapshot(router).queue).toEqual({
      running: ['/p/1', '/p/2', '/p/3', '/p/4', '/p/5'],
      waiting: ['/p/6', '/p/7'],
    });
    const done = router.navigate('/p/7');
    await flush();
    expect(h.fetches.map((f) => f.url.split('?')[0])).toEqual([
      '/p/1',
      '/p/2',
      '/p/3',
      '/p/4',
      '/p/5',
      '/p/7',
    ]);
    h.fetches[5]!.reply.resolve(jsonResponse(prefetchAnswer('/p/7', 'p7')));
    await done;
    expect(router.getSnapshot().href).toBe('/p/7');
    // The page the user left stops prefetching: running requests are aborted, waiting ones never go.
    expect(devtoolsSnapshot(router).queue).toEqual({ running: [], waiting: [] });
    expect(h.fetches.slice(0, 5).every((f) => f.signal.aborted)).toBe(true);
    expect(devtoolsSnapshot(router).entries.map((e) => e.key)).toEqual(['/p/7']);
  });

  test('a prefetch that fails while a navigation waits on it: the navigation fetches for itself', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/b');
    await flush();
    const done = router.navigate('/b');
    await flush();
    h.fetches[0]!.reply.resolve(new Response('busy', { status: 503 }));
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=%2F&_syp=auto', '/b?_sy=%2F']);
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await done;
    expect(h.assigned).toEqual([]);
    expect(router.getSnapshot().href).toBe('/b');
    expect(devtoolsSnapshot(router).entries.map((e) => [e.key, e.kind])).toEqual([['/b', 'temporary']]);
  });

  test('the same URL is never prefetched twice at once, and a usable entry is not fetched again', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/b');
    void router.prefetch('/b#x');
    await flush();
    expect(h.fetches).toHaveLength(1);
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    await flush();
    void router.prefetch('/b');
    await flush();
    expect(h.fetches).toHaveLength(1);
    void router.prefetch('/b', 'full'); // an upgrade: auto data is not all the data
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=%2F&_syp=auto', '/b?_sy=%2F&_syp=full']);
  });

  test('a full prefetch asked while an auto one is on its way follows it once it settles, through the queue', async () => {
    const h = harness();
    const router = start(h);
    for (let i = 1; i <= 4; i++) void router.prefetch(`/p/${i}`);
    void router.prefetch('/b', 'auto', 'viewport');
    void router.prefetch('/p/5', 'auto', 'viewport');
    await flush();
    const full = router.prefetch('/b', 'full');
    await flush();
    expect(h.fetches.map((f) => f.url.split('?')[0])).toEqual(['/p/1', '/p/2', '/p/3', '/p/4', '/b']);
    h.fetches[4]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b', 1)));
    await flush();
    // The upgrade takes the place the auto prefetch freed: still 5 at once.
    expect(h.fetches.at(-1)!.url).toBe('/b?_sy=%2F&_syp=full');
    expect(devtoolsSnapshot(router).queue).toEqual({
      running: ['/p/1', '/p/2', '/p/3', '/p/4', '/b'],
      waiting: ['/p/5'],
    });
    h.fetches.at(-1)!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    expect(await full).toEqual({ status: 'fresh' });
    expect(devtoolsSnapshot(router).entries.find((e) => e.key === '/b')).toMatchObject({
      kind: 'full',
      partial: false,
    });
  });

  test('a full prefetch asked while an auto one still waits takes its place: one request', async () => {
    const h = harness();
    const router = start(h, undefined, { concurrency: 1 });
    void router.prefetch('/a');
    const auto = router.prefetch('/b', 'auto', 'viewport');
    await flush();
    const full = router.prefetch('/b', 'full');
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/a', 'a')));
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/a?_sy=%2F&_syp=auto', '/b?_sy=%2F&_syp=full']);
    h.fetches[1]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    // Who asked for the auto prefetch hears how the full one that took its place went.
    expect(await Promise.all([auto, full])).toEqual([{ status: 'fresh' }, { status: 'fresh' }]);
    expect(h.fetches).toHaveLength(2);
    expect(devtoolsSnapshot(router).entries.find((e) => e.key === '/b')).toMatchObject({ kind: 'full' });
  });

  test('a full prefetch waiting on an auto one the page drops is dropped with it', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/b', 'auto', 'viewport');
    await flush();
    const full = router.prefetch('/b', 'full');
    void router.navigate('/c');
    expect(await full).toEqual({ status: 'skipped' });
    expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=%2F&_syp=auto', '/c?_sy=%2F']);
  });

  test('a full prefetch waiting on an auto one that fails fails with it: the URL is not asked again', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/b', 'auto', 'viewport');
    await flush();
    const full = router.prefetch('/b', 'full');
    h.fetches[0]!.reply.resolve(new Response('down', { status: 503 }));
    expect(await full).toEqual({ status: 'failed' });
    expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=%2F&_syp=auto']);
  });

  test('a stale entry is kept for the navigation to use; an expired one is fetched again', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/b');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    await flush();
    h.clock.now += FRESH_WINDOW_MS;
    expect(devtoolsSnapshot(router).entries.map((e) => e.status)).toEqual(['stale']);
    void router.prefetch('/b'); // a hover over a link whose entry is stale
    await flush();
    expect(h.fetches).toHaveLength(1);
    h.clock.now += STALE_WINDOW_MS - FRESH_WINDOW_MS;
    expect(devtoolsSnapshot(router).entries.map((e) => e.status)).toEqual(['expired']);
    void router.prefetch('/b');
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=%2F&_syp=auto', '/b?_sy=%2F&_syp=auto']);
  });

  test('other origins are never prefetched', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('https://elsewhere.example/b');
    await flush();
    expect(h.fetches).toEqual([]);
  });

  test('refresh clears the cache; invalidate drops only the entries a path affects', async () => {
    const h = harness();
    const router = start(h);
    for (const path of ['/photos/1', '/photos/1?tab=c', '/photos/2']) void router.prefetch(path);
    await flush();
    router.invalidate('/photos/1');
    expect(devtoolsSnapshot(router).entries.map((e) => e.key)).toEqual(['/photos/2']);
    void router.refresh();
    expect(devtoolsSnapshot(router).entries).toEqual([]);
  });

  test('back and forward never consult the cache', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/old');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/old', 'old')));
    await flush();
    h.location.href = `${ORIGIN}/old`;
    const done = router.onPopState({ key: 'not-held' });
    expect(h.fetches.map((f) => f.url)).toEqual(['/old?_sy=%2F&_syp=auto', '/old?_sy=%2F']);
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/old', 'old')));
    await done;
    expect(devtoolsSnapshot(router).entries.map((e) => `${e.key} ${e.kind}`)).toEqual(['/old auto']);
  });
});

describe('slots and intercepted routes', () => {
  const MODAL = '(feed)/@modal';
  const closed: SlotState = {
    segments: [{ dir: MODAL, files: { default: `${MODAL}/default.tsx` } }],
    params: {},
    shows: 'default',
  };
  /** A page inside the (feed) layout, whose @modal slot is closed. */
  function feedState(url: string, page: string, modal: SlotState = closed): PageState {
    const state = pageState(url, `(feed)/${page}`);
    const [root, leaf] = state.segments;
    return { ...state, segments: [root!, { dir: '(feed)', files: {}, slots: { modal } }, leaf!] };
  }
  function intercepted(url: string, id: string): InterceptedAnswer {
    return {
      buildId: BUILD,
      url,
      status: 200,
      intercept: {
        at: '(feed)',
        slot: 'modal',
        state: {
          segments: [
            {
              dir: `${MODAL}/(.)photos/[id]`,
              files: { page: `${MODAL}/(.)photos/[id]/page.tsx` },
              pageData: { id },
            },
          ],
          params: { id },
          shows: 'page',
          intercepted: true,
        },
      },
    };
  }
  /** The harness of a feed page whose client tree says /photos/* is intercepted from (feed) pages. */
  function feedHarness() {
    const h = harness();
    h.effects.interceptionOf = (pathname, from) =>
      pathname.startsWith('/photos/') && (from === '/' || from.startsWith('/u/')) ? MODAL : undefined;
    const router = start(h, feedState('/', 'page'));
    return { h, router };
  }
  /** The feed page as the server answers it, its layouts left to the client. */
  function feedAnswer(url: string, pageData: unknown, fromFeed = true): PageDataResponse {
    const state = feedState(url, 'page');
    const [root, feed, leaf] = state.segments;
    return {
      ...state,
      status: 200,
      segments: [
        { dir: root!.dir, files: root!.files, reuseLayoutData: true },
        fromFeed ? { ...feed!, reuseLayoutData: true } : feed!,
        { ...leaf!, pageData },
      ],
    };
  }
  const modalOf = (state: PageState) => state.segments.find((s) => s.dir === '(feed)')?.slots?.modal;

  test('a soft navigation into the scope shows the route in its slot, over the page, keeping the scroll', async () => {
    const { h, router } = feedHarness();
    const done = router.navigate('/photos/3');
    expect(h.fetches.map((f) => f.url)).toEqual(['/photos/3?_sy=%2F']);
    h.fetches[0]!.reply.resolve(jsonResponse(intercepted('/photos/3', '3')));
    await done;
    const { state, href, scroll } = router.getSnapshot();
    expect(href).toBe('/photos/3');
    expect(state).toMatchObject({ url: '/photos/3', mainUrl: '/' });
    expect(state.segments.at(-1)!.dir).toBe('(feed)/page'); // the feed is still the page under it
    expect(modalOf(state)).toMatchObject({ shows: 'page', intercepted: true, params: { id: '3' } });
    expect(scroll).toEqual({ kind: 'keep' });
    expect(h.history.at(-1)).toMatchObject({ op: 'push', href: '/photos/3' });
  });

  test('leaving it closes the slot; the next request names the page under it as the origin', async () => {
    const { h, router } = feedHarness();
    const open = router.navigate('/photos/3');
    h.fetches[0]!.reply.resolve(jsonResponse(intercepted('/photos/3', '3')));
    await open;
    const leave = router.navigate('/u/ada');
    expect(h.fetches[1]!.url).toBe('/u/ada?_sy=%2F');
    h.fetches[1]!.reply.resolve(jsonResponse({ ...feedState('/u/ada', 'u/[handle]'), status: 200 }));
    await leave;
    const { state } = router.getSnapshot();
    expect(state.mainUrl).toBeUndefined();
    expect(modalOf(state)).toEqual(closed);
  });

  test('a slot showing a page of its own keeps it when nothing in it matches the next URL', async () => {
    const { h, router } = feedHarness();
    const side: SlotState = {
      ...closed,
      shows: 'page',
      segments: [{ dir: MODAL, files: { page: `${MODAL}/x/page.tsx` } }],
    };
    const first = router.navigate('/x');
    h.fetches[0]!.reply.resolve(jsonResponse({ ...feedState('/x', 'x', side), status: 200 }));
    await first;
    const second = router.navigate('/y');
    h.fetches[1]!.reply.resolve(jsonResponse({ ...feedState('/y', 'y'), status: 200 }));
    await second;
    expect(modalOf(router.getSnapshot().state)).toEqual(side);
  });

  test('a route opened in a slot during a layout revalidation leaves the page under it untrusted', async () => {
    const { h, router } = feedHarness();
    void router.revalidate([{ path: '/', type: 'layout' }]);
    const done = router.navigate('/photos/3');
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/?_sy=', '/photos/3?_sy=%2F&_syw=1']);
    h.fetches[1]!.reply.resolve(jsonResponse(intercepted('/photos/3', '3')));
    await done;
    // The feed under the modal still holds the old layout data: nothing is trimmed against it yet.
    void router.prefetch('/u/ada', 'auto', 'intent');
    await flush();
    expect(h.fetches.at(-1)!.url).toBe('/u/ada?_sy=&_syp=auto');
  });

  test('refresh under an intercepted route keeps it, and refreshes the page under it too', async () => {
    const { h, router } = feedHarness();
    const open = router.navigate('/photos/3');
    h.fetches[0]!.reply.resolve(jsonResponse(intercepted('/photos/3', '3')));
    await open;
    const refreshing = router.refresh();
    // The route in the slot, asked from the page under it (so it stays intercepted), and that page.
    // Both whole: a refresh reuses none of the layout data the page holds, under the modal too.
    expect(h.fetches.slice(1).map((f) => f.url)).toEqual(['/photos/3?_sy=%2F&_syw=1', '/?_sy=%2F&_syw=1']);
    h.fetches[1]!.reply.resolve(jsonResponse(intercepted('/photos/3', '3')));
    h.fetches[2]!.reply.resolve(jsonResponse(feedAnswer('/', { likes: 8 })));
    await refreshing;
    const { state } = router.getSnapshot();
    expect(modalOf(state)).toMatchObject({ intercepted: true });
    expect(state.mainUrl).toBe('/');
    expect(state.segments.at(-1)!.pageData).toEqual({ likes: 8 });
  });

  test('after a revalidation under a modal, closing it shows the page under it with the new data, with no request', async () => {
    const { h, router } = feedHarness();
    const feedKey = h.history[0]!.state.key;
    const open = router.navigate('/photos/3');
    h.fetches[0]!.reply.resolve(jsonResponse(intercepted('/photos/3', '3')));
    await open;
    const revalidating = router.revalidate([{ path: '/photos/3', type: 'page' }]);
    h.fetches[1]!.reply.resolve(jsonResponse(intercepted('/photos/3', '3')));
    h.fetches[2]!.reply.resolve(jsonResponse(feedAnswer('/', { likes: 8 })));
    await revalidating;
    h.location.href = `${ORIGIN}/`;
    await router.onPopState({ key: feedKey });
    const { state } = router.getSnapshot();
    expect(modalOf(state)).toEqual(closed);
    expect(state.segments.at(-1)!.pageData).toEqual({ likes: 8 });
    expect(h.fetches).toHaveLength(3);
  });

  test('a held page whose path was revalidated is fetched again when history returns to it', async () => {
    const { h, router } = feedHarness();
    const feedKey = h.history[0]!.state.key;
    const away = router.navigate('/tags');
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/tags', 'tags')));
    await away;
    const revalidating = router.revalidate([{ path: '/', type: 'page' }]);
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/tags', 'tags')));
    await revalidating;
    h.location.href = `${ORIGIN}/`;
    const back = router.onPopState({ key: feedKey });
    expect(h.fetches.map((f) => f.url)[2]).toBe('/?_sy=%2Ftags');
    h.fetches[2]!.reply.resolve(jsonResponse(feedAnswer('/', { likes: 9 }, false)));
    await back;
    expect(router.getSnapshot().state.segments.at(-1)!.pageData).toEqual({ likes: 9 });
  });

  test('back closes the intercepted view and forward reopens it, with no request', async () => {
    const { h, router } = feedHarness();
    const feedKey = h.history[0]!.state.key;
    const open = router.navigate('/photos/3');
    h.fetches[0]!.reply.resolve(jsonResponse(intercepted('/photos/3', '3')));
    await open;
    const modalKey = h.history.at(-1)!.state.key;
    h.location.href = `${ORIGIN}/`;
    await router.onPopState({ key: feedKey });
    expect(modalOf(router.getSnapshot().state)).toEqual(closed);
    h.location.href = `${ORIGIN}/photos/3`;
    await router.onPopState({ key: modalKey });
    expect(modalOf(router.getSnapshot().state)).toMatchObject({ intercepted: true });
    expect(h.fetches).toHaveLength(1);
  });

  test('a refresh under a modal leaves a page held for its URL shown whole as it was', async () => {
    const h = harness();
    h.location.href = `${ORIGIN}/photos/3`;
    h.effects.interceptionOf = (pathname, from) =>
      pathname.startsWith('/photos/') && from === '/' ? MODAL : undefined;
    const router = start(h, pageState('/photos/3', 'photos/[id]'));
    const photoKey = h.history[0]!.state.key;
    const feed = router.navigate('/');
    h.fetches[0]!.reply.resolve(jsonResponse(feedAnswer('/', { likes: 1 }, false)));
    await feed;
    const open = router.navigate('/photos/3');
    h.fetches[1]!.reply.resolve(jsonResponse(intercepted('/photos/3', '3')));
    await open;
    const refreshing = router.refresh();
    h.fetches[2]!.reply.resolve(jsonResponse(intercepted('/photos/3', '3')));
    h.fetches[3]!.reply.resolve(jsonResponse(feedAnswer('/', { likes: 2 }, false)));
    await refreshing;
    // Back to the photo's own page, as it was first shown: the whole page, no modal over the feed.
    h.location.href = `${ORIGIN}/photos/3`;
    await router.onPopState({ key: photoKey, index: 0 });
    const { state } = router.getSnapshot();
    expect(state.mainUrl).toBeUndefined();
    expect(state.segments.at(-1)!.dir).toBe('photos/[id]');
    expect(h.fetches).toHaveLength(4);
  });

  test('a stale partial entry the server did not intercept, filled in again: what came takes its place', async () => {
    const { h, router } = feedHarness();
    // Asked from the feed, under the intercepted key; the server answered the plain page.
    await prefetchedThenStale(h, router, '/photos/3', prefetchAnswer('/photos/3', 'photos/[id]', 1));
    await router.navigate('/photos/3');
    expect(h.fetches.at(-1)!.url).toBe('/photos/3?_sy=&_syp=full');
    const whole = prefetchAnswer('/photos/3', 'photos/[id]');
    whole.segments[1]!.pageData = { version: 'new' };
    h.fetches.at(-1)!.reply.resolve(jsonResponse(whole));
    await flush();
    expect(router.getSnapshot().state.segments[1]!.pageData).toEqual({ version: 'new' });
    expect(devtoolsSnapshot(router).entries.map((e) => `${e.key} ${e.kind}`)).toEqual([
      `/photos/3 ${MODAL} temporary`,
    ]);
    const requests = await awayAndBack(h, router, '/photos/3', feedAnswer('/', { likes: 1 }, false));
    expect(h.fetches).toHaveLength(requests);
    expect(router.getSnapshot().state.segments[1]!.pageData).toEqual({ version: 'new' });
  });

  test('a page that intercepts its own URL keeps a plain entry, filled in again, under the plain key', async () => {
    const h = harness();
    h.effects.interceptionOf = (pathname, from) =>
      pathname.startsWith('/photos/') && from.startsWith('/photos/') ? MODAL : undefined;
    const router = start(h);
    await prefetchedThenStale(h, router, '/photos/3', prefetchAnswer('/photos/3', 'photos/[id]', 1));
    await router.navigate('/photos/3');
    h.fetches.at(-1)!.reply.resolve(jsonResponse(prefetchAnswer('/photos/3', 'photos/[id]')));
    await flush();
    // Not under the intercepted key, where a click from another photo would show it in place of the modal.
    expect(devtoolsSnapshot(router).entries.map((e) => `${e.key} ${e.kind}`)).toEqual([
      '/photos/3 temporary',
    ]);
  });

  test('the cache keeps the intercepted and the plain answer for one URL apart', async () => {
    const { h, router } = feedHarness();
    void router.prefetch('/photos/3');
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/photos/3?_sy=%2F&_syp=auto']);
    h.fetches[0]!.reply.resolve(jsonResponse(intercepted('/photos/3', '3')));
    await flush();
    // On a page outside the scope, the same URL is another entry, fetched without an origin.
    const away = router.navigate('/tags');
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/tags', 'tags')));
    await away;
    void router.prefetch('/photos/3');
    await flush();
    expect(h.fetches[2]!.url).toBe('/photos/3?_sy=%2Ftags&_syp=auto');
    expect(devtoolsSnapshot(router).entries.map((e) => e.key)).toEqual([
      `/photos/3 ${MODAL}`,
      '/tags',
      '/photos/3',
    ]);
  });

  test('a prefetched intercepted entry opens the slot with no request', async () => {
    const { h, router } = feedHarness();
    void router.prefetch('/photos/3');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(intercepted('/photos/3', '3')));
    await flush();
    await router.navigate('/photos/3');
    expect(h.fetches).toHaveLength(1);
    expect(modalOf(router.getSnapshot().state)).toMatchObject({ intercepted: true });
  });
});

describe('a URL a route handler answers', () => {
  const documentAnswer = (url: string) => jsonResponse({ buildId: BUILD, url, status: 200, document: true });

  test('the navigation leaves the app for it, every time: no reload guard, no history entry of ours', async () => {
    const h = harness();
    const router = start(h);
    for (const _click of [1, 2]) {
      const done = router.navigate('/api/photos/1');
      h.fetches.at(-1)!.reply.resolve(documentAnswer('/api/photos/1'));
      await done;
    }
    expect(h.assigned).toEqual([`${ORIGIN}/api/photos/1`, `${ORIGIN}/api/photos/1`]);
    expect(h.history.filter((e) => e.op === 'push')).toEqual([]);
    expect(router.getSnapshot()).toMatchObject({ href: '/', commit: 0, pending: false });
    expect(h.errors).toEqual([]);
  });

  test('a prefetch of it keeps nothing to show: the click asks again, then leaves', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/api/photos/1');
    await flush();
    h.fetches[0]!.reply.resolve(documentAnswer('/api/photos/1'));
    await flush();
    const done = router.navigate('/api/photos/1');
    await flush();
    h.fetches[1]!.reply.resolve(documentAnswer('/api/photos/1'));
    await done;
    expect(h.assigned).toEqual([`${ORIGIN}/api/photos/1`]);
    expect(router.getSnapshot().commit).toBe(0);
  });
});

describe('redirects from page data', () => {
  const redirectTo = (location: string, url = '/old') =>
    jsonResponse({ buildId: BUILD, url, status: 200, redirect: { location, status: 307 } });

  test('a push goes on to the target: one history entry, for the target, never the redirecting URL', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/old');
    h.fetches[0]!.reply.resolve(redirectTo('/photos/3'));
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/old?_sy=%2F', '/photos/3?_sy=%2F']);
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/photos/3', 'photos')));
    await done;
    expect(h.history.filter((e) => e.op === 'push').map((e) => e.href)).toEqual(['/photos/3']);
    expect(router.getSnapshot().href).toBe('/photos/3');
    expect(h.assigned).toEqual([]);
  });

  test('a redirect to the page already shown does nothing', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/old');
    h.fetches[0]!.reply.resolve(redirectTo('/'));
    await done;
    expect(h.fetches).toHaveLength(1);
    expect(h.history.filter((e) => e.op === 'push')).toEqual([]);
    expect(router.getSnapshot()).toMatchObject({ href: '/', commit: 0, pending: false });
  });

  test.each(['//evil.example', '/\\evil.example', 'javascript:alert(1)', 'https://evil.example/'])(
    'the client refuses %j too: the page that redirected is loaded in full, never the target',
    async (target) => {
      const h = harness();
      const router = start(h);
      const done = router.navigate('/old');
      h.fetches[0]!.reply.resolve(redirectTo(target));
      await done;
      expect(h.fetches).toHaveLength(1);
      expect(h.assigned).toEqual([`${ORIGIN}/old`]);
    },
  );

  test('an action that invalidates a layout and then navigates (a sign-out redirect) asks for the layouts whole', async () => {
    const h = harness();
    const router = start(h, pageState('/', 'feed', { user: 'signed in' }));
    router.invalidate('/', 'layout');
    const done = router.navigate('/b');
    expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=%2F&_syw=1']);
    h.fetches[0]!.reply.resolve(
      jsonResponse({ ...pageState('/b', 'b', { user: 'signed out' }), status: 200 }),
    );
    await done;
    expect(router.getSnapshot().state.segments[0]!.layoutData).toEqual({ user: 'signed out' });
  });

  test('a revalidation cancelled by a click leaves the page it was refreshing to be fetched again on back', async () => {
    const h = harness();
    const router = start(h);
    void router.revalidate([{ path: '/', type: 'page' }]);
    const done = router.navigate('/b');
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await done;
    expect(h.fetches[0]!.signal.aborted).toBe(true);
    h.location.href = `${ORIGIN}/`;
    const back = router.onPopState({ key: 'k1' });
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/?_sy=', '/b?_sy=%2F', '/?_sy=%2Fb']);
    h.fetches[2]!.reply.resolve(jsonResponse(answer('/', 'feed')));
    await back;
    expect(router.getSnapshot().href).toBe('/');
  });

  test('a redirect loop ends in a hard navigation', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/a');
    for (let i = 0; i <= 10; i++) {
      await flush();
      h.fetches[i]!.reply.resolve(redirectTo(i % 2 ? '/a' : '/b'));
    }
    await done;
    expect(h.fetches).toHaveLength(11);
    expect(h.assigned).toHaveLength(1);
  });
});
