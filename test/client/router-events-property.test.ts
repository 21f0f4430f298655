/**
 * A property of the router over random sequences of push, back and forward, refresh and
 * prefetch, with replies (pages, redirects, failures), clock moves, a blocker turned on and off,
 * and its held navigations proceeded or reset, interleaved at random: every `start` is followed
 * by exactly one terminal event with its id, and every promise the router returned has settled
 * once the replies are in and nothing is held. The browser's history is modelled: the router's
 * own traversals (putting a held one back, making it again) reach it as popstates when the test
 * delivers them. Seeded: a failing seed replays exactly.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { blockersOf, type BlockWhen } from '../../client/blockers';
import type { HistoryEntryState, NavigationEvent } from '../../client/router';
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
    // The session history: entries the router wrote, where the browser is, and the traversals
    // the router asked for that the browser has not made yet.
    const stack: { state: HistoryEntryState; href: string }[] = [];
    let at = 0;
    const traversals: number[] = [];
    const { pushState, replaceState } = h.effects;
    h.effects.pushState = (state, href) => {
      pushState(state, href);
      stack.splice(++at, Infinity, { state, href });
    };
    h.effects.replaceState = (state, href) => {
      replaceState(state, href);
      stack[at] = { state, href };
    };
    h.effects.go = (delta) => traversals.push(delta);
    const router = start(h);
    const blocker = {};
    let blocking = false;
    const events: NavigationEvent[] = [];
    router.onNavigation((event) => events.push(event));
    const promises: { settled: boolean }[] = [];
    const track = (promise: Promise<unknown>) => {
      const tracked = { settled: false };
      promises.push(tracked);
      void promise.then(() => (tracked.settled = true));
    };
    /** The browser moves by `delta`, if it can, and tells the router. */
    const traverse = (delta: number) => {
      const to = at + delta;
      if (to < 0 || to >= stack.length) return;
      at = to;
      h.location.href = ORIGIN + stack[at]!.href;
      track(router.onPopState(stack[at]!.state));
    };
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
      const action = rng.below(9);
      if (action === 0) track(router.navigate(rng.pick(PATHS), { replace: rng.below(4) === 0 }));
      else if (action === 1) {
        // The user goes back or forward, or lands on an entry the router never wrote.
        if (rng.below(5) > 0) traverse(rng.pick([-2, -1, -1, 1]));
        else {
          h.location.href = `${ORIGIN}/old`;
          track(router.onPopState({ key: 'unknown' }));
        }
      } else if (action === 2) track(router.refresh());
      else if (action === 3) track(router.prefetch(rng.pick(PATHS), rng.pick(['auto', 'full'] as const)));
      else if (action === 4 && answered < h.fetches.length) reply(h.fetches[answered++]!);
      else if (action === 6) {
        const when: BlockWhen = rng.pick([true, ({ nextUrl }) => nextUrl !== '/a']);
        if (blocking) blockersOf(router.blockers).remove(blocker);
        else blockersOf(router.blockers).set(blocker, when);
        blocking = !blocking;
      } else if (action === 7) {
        if (rng.below(2) === 0) blockersOf(router.blockers).proceed();
        else blockersOf(router.blockers).reset();
      } else if (action === 8 && traversals.length > 0) traverse(traversals.shift()!);
      else await vi.advanceTimersByTimeAsync(rng.pick([0, 100, 1_000, 4_000]));
      await flush();
    }
    // The user stays wherever held; the browser makes the traversals asked of it; everything
    // still on its way answers, and the clock runs out every deadline.
    for (
      let rounds = 0;
      answered < h.fetches.length ||
      traversals.length > 0 ||
      blockersOf(router.blockers).blocked() ||
      rounds < 3;
      rounds++
    ) {
      blockersOf(router.blockers).reset();
      while (traversals.length > 0) traverse(traversals.shift()!);
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
