/**
 * A property of the router over random sequences of push, back, refresh and prefetch, with
 * replies (pages, redirects, failures) and clock moves interleaved at random: every `start` is
 * followed by exactly one terminal event with its id, and every promise the router returned has
 * settled once the replies are in. Seeded: a failing seed replays exactly.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { NavigationEvent } from '../../client/router';
import {
  BUILD,
  flush,
  harness,
  jsonResponse,
  ORIGIN,
  prefetchAnswer,
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

/** A small linear congruential generator: the same seed, the same sequence. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => (state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0) / 2 ** 32;
  return {
    below: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}

const PATHS = ['/', '/a', '/b', '/c?x=1', '/d#part', '/old'];
const SEEDS = 60;
const STEPS = 30;

test.each(Array.from({ length: SEEDS }, (_, seed) => seed))(
  'seed %i: one terminal event per start, ids matching, every promise settled',
  async (seed) => {
    const rng = random(seed);
    const h = harness();
    const router = start(h);
    const events: NavigationEvent[] = [];
    router.onNavigation((event) => events.push(event));
    const promises: { settled: boolean }[] = [];
    const track = (promise: Promise<unknown>) => {
      const tracked = { settled: false };
      promises.push(tracked);
      void promise.then(() => (tracked.settled = true));
    };
    /** Keys of the history entries the router pushed, to go back to. */
    const reply = (fetch: (typeof h.fetches)[number]) => {
      const url = new URL(fetch.url, ORIGIN);
      const path = url.pathname;
      const kind = rng.below(10);
      if (kind === 0) fetch.reply.resolve(new Response('', { status: 500 }));
      else if (kind === 1) fetch.reply.reject(new TypeError('Failed to fetch'));
      else if (kind <= 3 && path === '/old')
        fetch.reply.resolve(
          jsonResponse({
            buildId: BUILD,
            url: path,
            status: 200,
            redirect: { location: rng.pick(PATHS), status: 307 },
          }),
        );
      else
        fetch.reply.resolve(jsonResponse(prefetchAnswer(path + url.search.replace(/[?&]_sy.*$/, ''), 'p')));
    };
    let answered = 0;

    for (let step = 0; step < STEPS; step++) {
      const action = rng.below(6);
      if (action === 0) track(router.navigate(rng.pick(PATHS), { replace: rng.below(4) === 0 }));
      else if (action === 1) {
        // The browser went back to one of the entries the router made (or one it never held).
        const entries = h.history.filter((e) => e.op === 'push' || e.op === 'replace');
        const entry = rng.below(5) === 0 ? { state: { key: 'unknown' }, href: '/old' } : rng.pick(entries);
        h.location.href = ORIGIN + entry.href;
        track(router.onPopState(entry.state));
      } else if (action === 2) track(router.refresh());
      else if (action === 3) track(router.prefetch(rng.pick(PATHS), rng.pick(['auto', 'full'] as const)));
      else if (action === 4 && answered < h.fetches.length) reply(h.fetches[answered++]!);
      else await vi.advanceTimersByTimeAsync(rng.pick([0, 100, 1_000, 4_000]));
      await flush();
    }
    // Everything still on its way answers, and the clock runs out every deadline.
    for (let rounds = 0; answered < h.fetches.length || rounds < 3; rounds++) {
      while (answered < h.fetches.length) reply(h.fetches[answered++]!);
      await flush();
      await vi.advanceTimersByTimeAsync(20_000);
    }

    const starts = events.filter((e) => e.type === 'start');
    const ends = events.filter((e) => e.type !== 'start');
    expect(ends.map((e) => e.id).sort((a, b) => a - b)).toEqual(starts.map((e) => e.id));
    for (const end of ends) {
      const startAt = events.findIndex((e) => e.type === 'start' && e.id === end.id);
      expect(startAt).toBeLessThan(events.indexOf(end));
    }
    expect(promises.filter((p) => !p.settled)).toEqual([]);
    expect(h.errors.filter((e) => !e.startsWith('switchyard: not reloading'))).toEqual([]);
  },
);
