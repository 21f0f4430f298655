/**
 * What the router tells listeners it did for a navigation, on its terminal event: each phase
 * with its times on the router's clock, the cache entry's status at the click, whether a loading
 * state showed, and how many page-data requests it made. Nothing is recorded without a listener.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { timeNavigation } from '../../client/navigation-details';
import { createNavigationEvents } from '../../client/navigation-events';
import type { NavigationEvent } from '../../client/router';
import type { NavigationDetails } from '../../client/router-types';
import { answer, flush, harness, jsonResponse, prefetchAnswer, start } from '../helpers/router-harness';

vi.mock('react', () => {
  throw new Error('the router core imported React');
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** The details of each navigation's end, in order. */
function detailsOf(router: { onNavigation(listener: (event: NavigationEvent) => void): () => void }) {
  const ends: (NavigationDetails | undefined)[] = [];
  router.onNavigation((event) => {
    if (event.type !== 'start') ends.push(event.details);
  });
  return ends;
}

describe('the details of a navigation', () => {
  test('nothing prefetched: the cache decision, one request timed to its answer, the scripts, the commit', async () => {
    const h = harness();
    const router = start(h);
    const ends = detailsOf(router);
    const t0 = h.clock.now;
    const done = router.navigate('/b');
    await flush(); // the scripts are in at once
    h.clock.now += 120;
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await done;
    expect(ends).toEqual([
      {
        entry: 'missing',
        loadingState: false,
        requests: 1,
        phases: [
          { name: 'cache', start: t0, end: t0 },
          { name: 'scripts', start: t0, end: t0 },
          { name: 'request', start: t0, end: t0 + 120 },
          { name: 'commit', start: t0 + 120, end: t0 + 120 },
        ],
      },
    ]);
  });

  test('a prefetch still on its way: its status, the wait on it, and no request of its own', async () => {
    const h = harness();
    const router = start(h);
    const ends = detailsOf(router);
    void router.prefetch('/b');
    await flush();
    const t0 = h.clock.now;
    const done = router.navigate('/b');
    await flush();
    h.clock.now += 40;
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    await done;
    expect(ends[0]).toMatchObject({ entry: 'fresh', requests: 0, loadingState: false });
    expect(ends[0]!.phases.map((p) => p.name)).toEqual(['cache', 'scripts', 'prefetch', 'commit']);
    expect(ends[0]!.phases[2]).toEqual({ name: 'prefetch', start: t0, end: t0 + 40 });
  });

  test('a stale entry that stops at a loading state: the state showed, and its refetch is a request', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/slow');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/slow', 'slow', 1)));
    await flush();
    h.clock.now += 30_000;
    const ends = detailsOf(router);
    const done = router.navigate('/slow');
    await done; // at the commit of the loading state; the refetch is still on its way
    expect(ends[0]).toMatchObject({ entry: 'stale', loadingState: true, requests: 0 });
    expect(ends[0]!.phases.map((p) => p.name)).toEqual(['cache', 'scripts', 'commit']);
  });

  test('page data that fails: the end is `hard`, with the request it made', async () => {
    const h = harness();
    const router = start(h);
    const ends: NavigationEvent[] = [];
    router.onNavigation((event) => ends.push(event));
    const done = router.navigate('/x');
    h.fetches[0]!.reply.resolve(new Response('', { status: 500 }));
    await done;
    expect(ends[1]).toMatchObject({ type: 'hard', details: { entry: 'missing', requests: 1 } });
  });

  test('with no listener at its start a navigation records nothing, and its work still runs', () => {
    const now = vi.fn(() => 5);
    const events = createNavigationEvents(() => {});
    const started = timeNavigation(events.start('push', '/b'), events.listening(), now);
    const seen: NavigationEvent[] = [];
    events.subscribe((event) => seen.push(event));
    expect(started.time('request', () => 'answer')).toBe('answer');
    started.note({ entry: 'fresh' });
    started.settle({ status: 'committed', url: '/b', redirected: false });
    expect(seen).toEqual([{ type: 'commit', id: 1, url: '/b', redirected: false }]);
    expect(now).not.toHaveBeenCalled();
  });
});
