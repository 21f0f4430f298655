/**
 * Navigation blockers on the router core, with injected effects and clock: what is held (push,
 * replace, back and forward, put back by its delta), what never is (refresh, redirects on the
 * way, the router's own full loads), what `proceed` and `reset` settle, and when the
 * `beforeunload` prompt is on.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { blockersOf, createBlockers, type BlockWhen } from '../../client/blockers';
import type { HistoryEntryState, NavigationEvent, Router } from '../../client/router';
import {
  answer,
  BUILD,
  flush,
  harness,
  jsonResponse,
  ORIGIN,
  start,
  type Harness,
} from '../helpers/router-harness';

vi.mock('react', () => {
  throw new Error('the router core imported React');
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function setUp() {
  const h = harness();
  const unloadGuards: ((() => boolean) | null)[] = [];
  h.effects.guardUnload = (shouldBlock) => unloadGuards.push(shouldBlock);
  const router = start(h);
  const events: NavigationEvent[] = [];
  router.onNavigation((event) => events.push(event));
  return { h, router, events, unloadGuards };
}

/** The entries the router wrote, by href: the last state each one holds. */
function entry(h: Harness, href: string): HistoryEntryState {
  const written = h.history.filter((e) => e.href === href && e.op !== 'go');
  return written.at(-1)!.state;
}

/** The browser moved to `href` (back or forward) and tells the router. */
function popTo(h: Harness, router: Router, href: string, state: HistoryEntryState | null) {
  h.location.href = ORIGIN + href;
  return router.onPopState(state);
}

const gos = (h: Harness) => h.history.filter((e) => e.op.startsWith('go')).map((e) => e.op);

async function visit(h: Harness, router: Router, href: string, page: string) {
  const done = router.navigate(href);
  h.fetches.at(-1)!.reply.resolve(jsonResponse(answer(href, page)));
  expect(await done).toMatchObject({ status: 'committed' });
}

/** On /b after / and /a, with a blocker that blocks `when`; the events from here on. */
async function onBBlocked(when: BlockWhen) {
  const { h, router, events } = setUp();
  await visit(h, router, '/a', 'a');
  await visit(h, router, '/b', 'b');
  blockersOf(router.blockers).set({}, when);
  events.length = 0;
  return { h, router, events };
}

describe('a push or replace while a blocker blocks', () => {
  test('is held: nothing fetched, nothing written; reset ends it aborted as blocked', async () => {
    const { h, router, events } = setUp();
    const owner = {};
    blockersOf(router.blockers).set(owner, true);
    const done = router.navigate('/b');
    await flush();
    expect(h.fetches).toEqual([]);
    expect(router.getSnapshot()).toMatchObject({ href: '/', pending: false });
    expect(blockersOf(router.blockers).blocked()).toEqual({ location: '/b', by: new Set([owner]) });
    blockersOf(router.blockers).reset();
    expect(await done).toEqual({ status: 'aborted', reason: 'blocked' });
    expect(blockersOf(router.blockers).blocked()).toBeUndefined();
    expect(events).toMatchObject([
      { type: 'start', id: 1, url: '/b', kind: 'push' },
      { type: 'abort', id: 1, reason: 'blocked' },
    ]);
  });

  test('proceed runs it: its promise settles with its own outcome, under the same id', async () => {
    const { h, router, events } = setUp();
    blockersOf(router.blockers).set({}, true);
    const done = router.navigate('/b?x=1#top', { replace: true });
    blockersOf(router.blockers).proceed();
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/b?x=1', 'b')));
    expect(await done).toEqual({ status: 'committed', url: '/b?x=1#top', redirected: false });
    expect(events.map((e) => `${e.type} ${e.id}`)).toEqual(['start 1', 'commit 1']);
    expect(h.history.at(-1)).toMatchObject({ op: 'replace', href: '/b?x=1#top' });
  });

  test('a condition is asked with the current URL, the next one and the kind; false lets it go at once', async () => {
    const { h, router } = setUp();
    const asked: unknown[] = [];
    blockersOf(router.blockers).set({}, (navigation) => {
      asked.push(navigation);
      return navigation.nextUrl?.startsWith('/private') ?? false;
    });
    void router.navigate('/open', { replace: true });
    expect(h.fetches.map((f) => f.url)).toEqual(['/open?_sy=%2F']);
    void router.navigate('https://elsewhere.example/private');
    const held = router.navigate('/private/1');
    expect(asked).toEqual([
      { kind: 'replace', currentUrl: '/', nextUrl: '/open' },
      { kind: 'push', currentUrl: '/', nextUrl: 'https://elsewhere.example/private' },
      { kind: 'push', currentUrl: '/', nextUrl: '/private/1' },
    ]);
    expect(blockersOf(router.blockers).blocked()?.location).toBe('/private/1');
    blockersOf(router.blockers).reset();
    expect(await held).toEqual({ status: 'aborted', reason: 'blocked' });
  });

  test('with several blockers, any one blocking holds it, and only those blocking show it', () => {
    const { router } = setUp();
    const [dirty, clean] = [{}, {}];
    blockersOf(router.blockers).set(dirty, true);
    blockersOf(router.blockers).set(clean, () => false);
    void router.navigate('/b');
    expect(blockersOf(router.blockers).blocked()?.by).toEqual(new Set([dirty]));
  });

  test('a newer navigation supersedes the held one, and is asked in its turn', async () => {
    const { h, router, events } = setUp();
    blockersOf(router.blockers).set({}, (navigation) => navigation.nextUrl !== '/c');
    const first = router.navigate('/b');
    const second = router.navigate('/c');
    expect(await first).toEqual({ status: 'aborted', reason: 'superseded' });
    expect(blockersOf(router.blockers).blocked()).toBeUndefined();
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/c', 'c')));
    expect(await second).toMatchObject({ status: 'committed', url: '/c' });
    expect(events.map((e) => e.type)).toEqual(['start', 'start', 'abort', 'commit']);
  });

  test('removing the blocker that holds it resets it', async () => {
    const { router } = setUp();
    const owner = {};
    blockersOf(router.blockers).set(owner, true);
    const done = router.navigate('/b');
    blockersOf(router.blockers).remove(owner);
    expect(await done).toEqual({ status: 'aborted', reason: 'blocked' });
  });

  test('a condition that throws is reported and lets the navigation go', () => {
    const { h, router } = setUp();
    blockersOf(router.blockers).set({}, () => {
      throw new Error('bug in the app');
    });
    void router.navigate('/b');
    expect(h.errors).toEqual(['switchyard: a blocker threw; the navigation goes on']);
    expect(h.fetches).toHaveLength(1);
  });
});

describe('back and forward while a blocker blocks', () => {
  test('history entries carry their index: a push adds one, a replace keeps it', async () => {
    const { h, router } = setUp();
    await visit(h, router, '/a', 'a');
    await visit(h, router, '/b', 'b');
    const replaced = router.navigate('/c', { replace: true });
    h.fetches.at(-1)!.reply.resolve(jsonResponse(answer('/c', 'c')));
    await replaced;
    expect(h.history.map((e) => `${e.op} ${e.href} ${e.state.index}`)).toEqual([
      'replace / 0',
      'replace / 0', // the scroll position saved on leaving
      'push /a 1',
      'replace /a 1',
      'push /b 2',
      'replace /c 2',
    ]);
  });

  test('the URL is put back by the delta; reset keeps the page; the put-back popstate starts nothing', async () => {
    const { h, router, events } = await onBBlocked(true);
    const back = popTo(h, router, '/', entry(h, '/'));
    expect(gos(h)).toEqual(['go 2']);
    expect(blockersOf(router.blockers).blocked()?.location).toBe('/');
    // The browser is back on /b: its popstate belongs to the held navigation.
    const putBack = popTo(h, router, '/b', entry(h, '/b'));
    expect(router.getSnapshot().href).toBe('/b');
    blockersOf(router.blockers).reset();
    expect(await back).toEqual({ status: 'aborted', reason: 'blocked' });
    expect(await putBack).toEqual({ status: 'aborted', reason: 'blocked' });
    expect(events).toMatchObject([
      { type: 'start', id: 3, url: '/', kind: 'pop' },
      { type: 'abort', id: 3, reason: 'blocked' },
    ]);
    expect(h.fetches).toHaveLength(2);
  });

  test('proceed makes the traversal again, and its popstate commits the held navigation', async () => {
    const { h, router, events } = await onBBlocked(true);
    const back = popTo(h, router, '/a', entry(h, '/a'));
    void popTo(h, router, '/b', entry(h, '/b'));
    blockersOf(router.blockers).proceed();
    expect(gos(h)).toEqual(['go 1', 'go -1']);
    // The browser goes back again: the held page comes back with no request, no second start.
    void popTo(h, router, '/a', entry(h, '/a'));
    expect(await back).toEqual({ status: 'committed', url: '/a', redirected: false });
    expect(router.getSnapshot().href).toBe('/a');
    expect(events.map((e) => `${e.type} ${e.id}`)).toEqual(['start 3', 'commit 3']);
    expect(h.fetches).toHaveLength(2);
    // From /a, a forward is put back by going back one.
    void popTo(h, router, '/b', entry(h, '/b'));
    expect(gos(h).at(-1)).toBe('go -1');
  });

  test('proceed before the put-back has landed waits for it: the browser drops a traversal made while one is on its way', async () => {
    const { h, router, events } = await onBBlocked(true);
    const back = popTo(h, router, '/a', entry(h, '/a'));
    blockersOf(router.blockers).proceed();
    expect(gos(h)).toEqual(['go 1']);
    void popTo(h, router, '/b', entry(h, '/b'));
    expect(gos(h)).toEqual(['go 1', 'go -1']);
    void popTo(h, router, '/a', entry(h, '/a'));
    expect(await back).toEqual({ status: 'committed', url: '/a', redirected: false });
    expect(events.map((e) => `${e.type} ${e.id}`)).toEqual(['start 3', 'commit 3']);
  });

  test('a proceeded traversal is superseded by another popstate that comes first', async () => {
    const { h, router } = await onBBlocked((navigation) => navigation.nextUrl !== '/');
    const back = popTo(h, router, '/a', entry(h, '/a'));
    void popTo(h, router, '/b', entry(h, '/b'));
    blockersOf(router.blockers).proceed();
    void popTo(h, router, '/', entry(h, '/'));
    expect(await back).toEqual({ status: 'aborted', reason: 'superseded' });
    expect(router.getSnapshot().href).toBe('/');
  });

  test('an entry the router did not write (no index) is not held: it cannot be put back', async () => {
    const { h, router } = setUp();
    blockersOf(router.blockers).set({}, true);
    const done = popTo(h, router, '/x', { key: 'from-elsewhere' });
    expect(gos(h)).toEqual([]);
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/x', 'x')));
    expect(await done).toMatchObject({ status: 'committed', url: '/x' });
  });
});

describe('what is never held', () => {
  test('a refresh, and a redirect on the way of a navigation let through', async () => {
    const { h, router } = setUp();
    blockersOf(router.blockers).set({}, (navigation) => navigation.nextUrl === '/old');
    const refreshed = router.refresh();
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/', 'feed')));
    expect(await refreshed).toMatchObject({ status: 'committed' });
    const done = router.navigate('/old');
    blockersOf(router.blockers).proceed();
    h.fetches[1]!.reply.resolve(
      jsonResponse({ buildId: BUILD, url: '/old', status: 200, redirect: { location: '/new', status: 307 } }),
    );
    await flush();
    h.fetches[2]!.reply.resolve(jsonResponse(answer('/new', 'new')));
    expect(await done).toEqual({ status: 'committed', url: '/new', redirected: true });
  });
});

describe('the beforeunload prompt', () => {
  test('on while a blocker may block, off when none does; a condition is asked with kind unload', () => {
    const { router, unloadGuards } = setUp();
    const [a, b] = [{}, {}];
    blockersOf(router.blockers).set(a, false);
    expect(unloadGuards).toEqual([]);
    let dirty = true;
    blockersOf(router.blockers).set(a, (navigation) => navigation.kind === 'unload' && dirty);
    blockersOf(router.blockers).set(b, true);
    expect(unloadGuards).toHaveLength(1);
    blockersOf(router.blockers).set(b, false);
    const shouldBlock = unloadGuards[0]!;
    expect(shouldBlock()).toBe(true);
    dirty = false;
    expect(shouldBlock()).toBe(false);
    blockersOf(router.blockers).remove(a);
    expect(unloadGuards).toEqual([shouldBlock, null]);
  });

  test('off while a proceeded navigation is on its way, on again once it commits', async () => {
    const { h, router, unloadGuards } = setUp();
    blockersOf(router.blockers).set({}, true);
    const done = router.navigate('/b');
    blockersOf(router.blockers).proceed();
    expect(unloadGuards.at(-1)).toBeNull();
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await done;
    await flush();
    expect(unloadGuards.at(-1)).toBeTypeOf('function');
  });

  test('off for good when the router loads a page in full: its own fallback is never held or prompted', async () => {
    const { h, router, unloadGuards } = setUp();
    blockersOf(router.blockers).set({}, (navigation) => navigation.nextUrl !== '/x');
    const done = router.navigate('/x');
    h.fetches[0]!.reply.resolve(new Response('', { status: 500 }));
    expect(await done).toEqual({ status: 'hard', url: `${ORIGIN}/x` });
    expect(h.assigned).toEqual([`${ORIGIN}/x`]);
    expect(unloadGuards.at(-1)).toBeNull();
  });
});

describe('the gate before any blocker', () => {
  test('lets navigations through without the registry, and a page that left gets no prompt later', async () => {
    const { h, router, unloadGuards } = setUp();
    const create = vi.fn(createBlockers);
    // No `useBlocker` yet: nothing creates the registry, and the push goes through.
    await visit(h, router, '/b', 'b');
    expect(create).not.toHaveBeenCalled();
    router.blockers.leaving();
    const blockers = router.blockers.registry(create);
    expect(router.blockers.registry(create)).toBe(blockers);
    expect(create).toHaveBeenCalledTimes(1);
    // The page is leaving: a blocker set now adds no `beforeunload` prompt.
    blockers.set({}, true);
    expect(unloadGuards).toEqual([]);
  });

  test('lets a back or forward through as a navigation without the registry, and puts nothing back', async () => {
    const { h, router } = setUp();
    const create = vi.fn(createBlockers);
    await visit(h, router, '/a', 'a');
    const back = popTo(h, router, '/', entry(h, '/'));
    expect(gos(h)).toEqual([]);
    expect(await back).toMatchObject({ status: 'committed', url: '/' });
    // Nothing made the registry: the first `useBlocker` does, and the history side comes with it.
    const blockers = router.blockers.registry(create);
    expect(create).toHaveBeenCalledTimes(1);
    blockers.set({}, true);
    void popTo(h, router, '/a', entry(h, '/a'));
    expect(gos(h)).toEqual(['go -1']);
  });
});
