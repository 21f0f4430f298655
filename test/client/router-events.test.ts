/**
 * Navigation events: each navigation emits `start`, then exactly one `commit`, `abort` or `hard`
 * with its id, whatever started it. The router core with injected effects and clock.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createLazyRouter } from '../../client/lazy-router';
import { createRouter, type NavigationEvent } from '../../client/router';
import type { InterceptedAnswer } from '../../shared/page-data';
import type { PageState } from '../../shared/page-state';
import {
  answer,
  BUILD,
  flush,
  harness,
  jsonResponse,
  ORIGIN,
  pageState,
  start,
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

function record(router: { onNavigation(listener: (event: NavigationEvent) => void): () => void }) {
  const events: NavigationEvent[] = [];
  // What the router did is router-details.test.ts's story; here only the order of events.
  const stop = router.onNavigation((event) => {
    const { details: _details, ...told } = event as NavigationEvent & { details?: unknown };
    events.push(told as NavigationEvent);
  });
  return { events, stop };
}

const redirectTo = (location: string) =>
  jsonResponse({ buildId: BUILD, url: '/old', status: 200, redirect: { location, status: 307 } });

describe('each navigation starts once and ends once', () => {
  test('a push: start, then commit with the same id', async () => {
    const h = harness();
    const router = start(h);
    const { events } = record(router);
    const done = router.navigate('/b');
    expect(events).toEqual([{ type: 'start', id: 1, url: '/b', kind: 'push' }]);
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await done;
    expect(events).toEqual([
      { type: 'start', id: 1, url: '/b', kind: 'push' },
      { type: 'commit', id: 1, url: '/b', redirected: false },
    ]);
  });

  test('a newer navigation: the older one aborts as superseded', async () => {
    const h = harness();
    const router = start(h);
    const { events } = record(router);
    void router.navigate('/a');
    const second = router.navigate('/b', { replace: true });
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await second;
    expect(events).toEqual([
      { type: 'start', id: 1, url: '/a', kind: 'push' },
      { type: 'start', id: 2, url: '/b', kind: 'replace' },
      { type: 'abort', id: 1, reason: 'superseded' },
      { type: 'commit', id: 2, url: '/b', redirected: false },
    ]);
  });

  test('back and forward are navigations of kind pop, held or fetched', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/b');
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await done;
    const { events } = record(router);
    h.location.href = `${ORIGIN}/`;
    await router.onPopState({ key: 'k1' });
    h.location.href = `${ORIGIN}/old`;
    const fetched = router.onPopState({ key: 'from-before-reload' });
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/old', 'old')));
    await fetched;
    expect(events).toEqual([
      { type: 'start', id: 2, url: '/', kind: 'pop' },
      { type: 'commit', id: 2, url: '/', redirected: false },
      { type: 'start', id: 3, url: '/old', kind: 'pop' },
      { type: 'commit', id: 3, url: '/old', redirected: false },
    ]);
  });

  test('a redirect is one navigation: one start, one commit that says so', async () => {
    const h = harness();
    const router = start(h);
    const { events } = record(router);
    const done = router.navigate('/old');
    h.fetches[0]!.reply.resolve(redirectTo('/photos/3'));
    await flush();
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/photos/3', 'photos')));
    await done;
    expect(events).toEqual([
      { type: 'start', id: 1, url: '/old', kind: 'push' },
      { type: 'commit', id: 1, url: '/photos/3', redirected: true },
    ]);
  });

  test('a revalidation after an action is a navigation of kind refresh', async () => {
    const h = harness();
    const router = start(h);
    const { events } = record(router);
    const done = router.revalidate([{ path: '/', type: 'page' }]);
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/', 'feed')));
    await done;
    expect(events.map((e) => `${e.type} ${e.id}`)).toEqual(['start 1', 'commit 1']);
    expect(events[0]).toMatchObject({ kind: 'refresh', url: '/' });
  });

  test('a failure ends in hard, another origin too', async () => {
    const h = harness();
    const router = start(h);
    const { events } = record(router);
    const done = router.navigate('/x');
    h.fetches[0]!.reply.resolve(new Response('', { status: 500 }));
    await done;
    await router.navigate('https://elsewhere.example/');
    expect(events).toEqual([
      { type: 'start', id: 1, url: '/x', kind: 'push' },
      { type: 'hard', id: 1, url: `${ORIGIN}/x` },
      { type: 'start', id: 2, url: 'https://elsewhere.example/', kind: 'push' },
      { type: 'hard', id: 2, url: 'https://elsewhere.example/' },
    ]);
  });

  test('the photo modal (an intercepted route) opens and closes as navigations', async () => {
    const MODAL = '(feed)/@modal';
    const h = harness();
    h.effects.interceptionOf = (pathname) => (pathname.startsWith('/photos/') ? MODAL : undefined);
    const feed = pageState('/', '(feed)/page');
    const [root, leaf] = feed.segments;
    const modal = { segments: [], params: {}, shows: 'default' } as const;
    const state: PageState = {
      ...feed,
      segments: [root!, { dir: '(feed)', files: {}, slots: { modal: { ...modal, segments: [] } } }, leaf!],
    };
    const router = start(h, state);
    const feedKey = h.history[0]!.state.key;
    const { events } = record(router);
    const photo: InterceptedAnswer = {
      buildId: BUILD,
      url: '/photos/3',
      status: 200,
      intercept: {
        at: '(feed)',
        slot: 'modal',
        state: {
          segments: [{ dir: `${MODAL}/(.)photos/[id]`, files: { page: `${MODAL}/(.)photos/[id]/page.tsx` } }],
          params: { id: '3' },
          shows: 'page',
          intercepted: true,
        },
      },
    };
    const open = router.navigate('/photos/3');
    h.fetches[0]!.reply.resolve(jsonResponse(photo));
    await open;
    h.location.href = `${ORIGIN}/`;
    await router.onPopState({ key: feedKey });
    expect(events).toEqual([
      { type: 'start', id: 1, url: '/photos/3', kind: 'push' },
      { type: 'commit', id: 1, url: '/photos/3', redirected: false },
      { type: 'start', id: 2, url: '/', kind: 'pop' },
      { type: 'commit', id: 2, url: '/', redirected: false },
    ]);
  });
});

describe('listeners', () => {
  test('one that throws is reported; the router and the other listeners go on', async () => {
    const h = harness();
    const router = start(h);
    router.onNavigation(() => {
      throw new Error('analytics is down');
    });
    const { events } = record(router);
    const done = router.navigate('/b');
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    expect(await done).toMatchObject({ status: 'committed' });
    expect(events.map((e) => e.type)).toEqual(['start', 'commit']);
    expect(h.errors).toEqual([
      'switchyard: a navigation listener threw',
      'switchyard: a navigation listener threw',
    ]);
  });

  test('unsubscribed, a listener hears nothing more', async () => {
    const h = harness();
    const router = start(h);
    const { events, stop } = record(router);
    await router.navigate('/#a');
    stop();
    await router.navigate('/#b');
    expect(events.map((e) => `${e.type} ${e.id}`)).toEqual(['start 1', 'commit 1']);
  });

  test('subscribed before the router code loads, a listener hears the router once it runs', async () => {
    const h = harness();
    const lazy = createLazyRouter({
      initial: { state: pageState('/', 'feed'), modules: new Map(), history: null },
      load: async (events) =>
        createRouter({
          initial: { state: pageState('/', 'feed'), modules: new Map(), history: null },
          effects: h.effects,
          events,
        }),
      effects: { ...h.effects, reload: () => {} },
      budgetMs: 3_800,
    });
    const { events } = record(lazy);
    const done = lazy.navigate('/b');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await done;
    expect(events.map((e) => `${e.type} ${e.id}`)).toEqual(['start 1', 'commit 1']);
  });
});
