/**
 * The router before its code has loaded: the first page's snapshot at once, calls that wait for
 * the code and then run on the real router, and a full page load when the code fails to load or
 * takes longer than a navigation's budget. Loads are deferred promises settled by hand.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { devtoolsSnapshot } from '../../client/devtools/snapshot';
import { blockersOf } from '../../client/blockers';
import { createLazyRouter, firstSnapshot } from '../../client/lazy-router';
import { createRouter } from '../../client/router';
import type { Router } from '../../client/router-types';
import { deferred, type Deferred } from '../helpers/deferred';
import {
  answer,
  flush,
  harness,
  jsonResponse,
  ORIGIN,
  pageState,
  start,
  type Harness,
} from '../helpers/router-harness';

vi.mock('react', () => {
  throw new Error('the lazy router imported React');
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const BUDGET_MS = 3_800;

function lazy(h: Harness) {
  const code: Deferred<Router> = deferred();
  const reported: string[] = [];
  const reloads: string[] = [];
  let loads = 0;
  const router = createLazyRouter({
    initial: {
      state: pageState('/', 'feed'),
      modules: new Map(),
      history: { key: 'k0', scroll: { x: 0, y: 40 } },
    },
    load: () => {
      loads++;
      return code.promise;
    },
    effects: { ...h.effects, reload: () => reloads.push(h.location.href) },
    budgetMs: BUDGET_MS,
    reportError: (message) => reported.push(message),
  });
  return { router, code, reported, reloads, loads: () => loads };
}

describe('before the router has loaded', () => {
  test('the first page is the snapshot, and nothing loads until something needs the router', () => {
    const h = harness();
    const { router, loads } = lazy(h);
    expect(router.getSnapshot()).toEqual({
      state: pageState('/', 'feed'),
      modules: new Map(),
      href: '/',
      commit: 0,
      scroll: { kind: 'restore', x: 0, y: 40 },
      announce: false,
      pending: false,
    });
    router.saveScroll();
    router.back();
    expect(h.history.map((e) => e.op)).toEqual(['go -1']);
    expect(loads()).toBe(0);
  });

  test('it is the snapshot the router starts with, so hydration and the router agree', () => {
    const h = harness();
    const initial = { state: pageState('/', 'feed'), modules: new Map(), history: null };
    expect(firstSnapshot(initial, h.effects.currentHref())).toEqual(start(h).getSnapshot());
  });

  test('a click waits for the code, shows as pending, then navigates softly', async () => {
    const h = harness();
    const { router, code, loads } = lazy(h);
    const seen: boolean[] = [];
    router.subscribe(() => seen.push(router.getSnapshot().pending));
    const done = router.navigate('/photos/3');
    expect(router.getSnapshot().pending).toBe(true);
    expect(loads()).toBe(1);
    code.resolve(start(h));
    await flush();
    expect(h.fetches.map((f) => new URL(f.url, ORIGIN).pathname)).toEqual(['/photos/3']);
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/photos/3', 'photos')));
    await done;
    expect(router.getSnapshot()).toMatchObject({ href: '/photos/3', commit: 1, pending: false });
    expect(seen.at(-1)).toBe(false);
    expect(h.assigned).toEqual([]);
  });

  test('a blocker mounted before the code loaded holds the click, which then shows as pending no more', async () => {
    const h = harness();
    const { router, code } = lazy(h);
    blockersOf(router.blockers).set({}, true);
    const done = router.navigate('/photos/3');
    expect(router.getSnapshot().pending).toBe(true);
    const initial = { state: pageState('/', 'feed'), modules: new Map(), history: null };
    code.resolve(createRouter({ initial, effects: h.effects, blockers: router.blockers }));
    await flush();
    expect(blockersOf(router.blockers).blocked()?.location).toBe('/photos/3');
    expect(router.getSnapshot().pending).toBe(false);
    expect(h.fetches).toEqual([]);
    blockersOf(router.blockers).reset();
    expect(await done).toEqual({ status: 'aborted', reason: 'blocked' });
  });

  test('prefetches wait for the code and run in order on the router', async () => {
    const h = harness();
    const { router, code, loads } = lazy(h);
    void router.prefetch('/a');
    void router.prefetch('/b', 'full');
    expect(loads()).toBe(1);
    code.resolve(start(h));
    await flush();
    // Which query a prefetch carries is the prefetcher's business; the order is this test's.
    expect(h.fetches.map((f) => new URL(f.url, ORIGIN).pathname)).toEqual(['/a', '/b']);
    expect(devtoolsSnapshot(router).entries.map((e) => e.key)).toEqual(['/a', '/b']);
  });

  test('a prefetch that waited keeps why it was asked for: a link in view is held to the budget', async () => {
    const h = harness();
    const { router, code } = lazy(h);
    for (let i = 1; i <= 10; i++) void router.prefetch(`/p/${i}`, 'auto', 'viewport');
    code.resolve(start(h));
    await flush();
    // Six fit the budget before anything is measured (see prefetch-policy.test.ts); four wait.
    expect(devtoolsSnapshot(router).budget.deferred).toEqual(['/p/7', '/p/8', '/p/9', '/p/10']);
  });
});

describe('once the router has loaded', () => {
  test('an invalidation applies at once, so the navigation right after it sees it (an action’s redirect)', async () => {
    const h = harness();
    const { router, code } = lazy(h);
    const calls: string[] = [];
    const real = start(h);
    code.resolve({
      ...real,
      invalidate: (path, scope) => calls.push(`invalidate ${path} ${scope}`),
      navigate: async (href) => {
        calls.push(`navigate ${href}`);
        return { status: 'committed', url: href, redirected: false };
      },
    });
    await router.ready();
    router.invalidate('/', 'layout');
    await router.navigate('/me');
    expect(calls).toEqual(['invalidate / layout', 'navigate /me']);
  });
});

describe('when the router does not load', () => {
  test('a click loads the page in full, and a prefetch does nothing', async () => {
    const h = harness();
    const { router, code, reported } = lazy(h);
    const prefetched = router.prefetch('/a');
    const done = router.navigate('/photos/3?x=1#top');
    code.reject(new TypeError('Failed to fetch dynamically imported module'));
    expect(await done).toEqual({ status: 'hard', url: `${ORIGIN}/photos/3?x=1#top` });
    expect(await prefetched).toEqual({ status: 'skipped' });
    expect(h.assigned).toEqual([`${ORIGIN}/photos/3?x=1#top`]);
    expect(reported).toEqual(['switchyard: the router did not load; links load pages in full']);
    await router.navigate('/b');
    expect(h.assigned).toEqual([`${ORIGIN}/photos/3?x=1#top`, `${ORIGIN}/b`]);
  });

  test('back or forward loads the entry the browser moved to', async () => {
    const h = harness();
    const { router, code, reloads } = lazy(h);
    h.location.href = `${ORIGIN}/earlier#part`;
    const done = router.onPopState(null);
    code.reject(new TypeError('Failed to fetch dynamically imported module'));
    expect(await done).toEqual({ status: 'hard', url: `${ORIGIN}/earlier#part` });
    // A reload, not `assign`: to a URL with a hash, assign would only scroll.
    expect(reloads).toEqual([`${ORIGIN}/earlier#part`]);
    expect(h.assigned).toEqual([]);
  });

  test('refresh and revalidate load the page again, showing as pending until it unloads', async () => {
    const h = harness();
    const { router, code, reloads } = lazy(h);
    h.location.href = `${ORIGIN}/photos/3#comments`;
    const refreshed = router.refresh();
    expect(router.getSnapshot().pending).toBe(true);
    code.reject(new TypeError('Failed to fetch dynamically imported module'));
    await refreshed;
    await router.revalidate([{ path: '/photos/3', type: 'page' }]);
    expect(reloads).toEqual([`${ORIGIN}/photos/3#comments`, `${ORIGIN}/photos/3#comments`]);
    expect(router.getSnapshot().pending).toBe(true);
  });

  test('a link to a hash on the page: the browser scrolls to it, and the page does not stay pending', async () => {
    const h = harness();
    const { router, code } = lazy(h);
    const done = router.navigate('#comments');
    code.reject(new TypeError('Failed to fetch dynamically imported module'));
    await done;
    expect(h.assigned).toEqual([`${ORIGIN}/#comments`]);
    expect(router.getSnapshot().pending).toBe(false);
    // Another page keeps showing as pending until the browser unloads this one.
    await router.navigate('/photos/3');
    expect(h.assigned).toEqual([`${ORIGIN}/#comments`, `${ORIGIN}/photos/3`]);
    expect(router.getSnapshot().pending).toBe(true);
  });

  test('code that takes longer than the budget: a full page load, and the late router never navigates', async () => {
    const h = harness();
    const { router, code } = lazy(h);
    const done = router.navigate('/slow');
    await vi.advanceTimersByTimeAsync(BUDGET_MS - 1);
    expect(h.assigned).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(h.assigned).toEqual([`${ORIGIN}/slow`]);
    code.resolve(start(h));
    await flush();
    expect(h.fetches).toEqual([]);
  });

  test('the devtools snapshot says the router has not loaded', () => {
    const { router } = lazy(harness());
    expect(() => devtoolsSnapshot(router)).toThrow(/has not loaded yet/);
  });
});
