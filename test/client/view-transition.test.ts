/**
 * View transitions: the runner on a stub document (once per commit, never under reduced motion
 * or without the API, the direction on `<html>` while it runs), and the router asking for one
 * exactly at the commits that should animate, back and forward included.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { readHistoryEntry } from '../../client/browser-start';
import {
  CAPTURE_BUDGET_MS,
  createViewTransitions,
  type TransitionDocument,
} from '../../client/view-transition';
import { deferred, type Deferred } from '../helpers/deferred';
import { answer, flush, harness, jsonResponse, prefetchAnswer, start } from '../helpers/router-harness';

/** A document whose `startViewTransition` records each call and the direction set at the time. */
function stubDocument(supported = true, { captures = true } = {}) {
  const attributes = new Map<string, string>();
  const calls: {
    direction: string | undefined;
    finished: Deferred<void>;
    skipped: boolean;
    update: () => void;
  }[] = [];
  const doc: TransitionDocument = {
    documentElement: {
      setAttribute: (name, value) => attributes.set(name, value),
      removeAttribute: (name) => attributes.delete(name),
    },
  };
  if (supported)
    doc.startViewTransition = (update) => {
      const finished = deferred<void>();
      const call = { direction: attributes.get('data-navigation'), finished, skipped: false, update };
      calls.push(call);
      // The browser calls it once the old page is captured; `captures: false` is a capture that
      // never comes.
      if (captures) update();
      const ready = deferred<void>();
      return {
        ready: ready.promise,
        finished: finished.promise,
        skipTransition: () => {
          call.skipped = true;
          // As the browser does: a skipped transition's `ready` rejects.
          ready.reject(new DOMException('Transition was skipped', 'AbortError'));
        },
      };
    };
  return { doc, attributes, calls };
}

describe('the runner', () => {
  test('one transition per call, the update flushed inside it, the direction set until it finishes', async () => {
    const { doc, attributes, calls } = stubDocument();
    const flushed: string[] = [];
    const run = createViewTransitions({
      document: doc,
      reducedMotion: () => false,
      flush: (update) => {
        flushed.push('flush');
        update();
      },
    });
    const updates: string[] = [];
    run('back', () => updates.push('commit'));
    expect(calls.map((c) => c.direction)).toEqual(['back']);
    expect(flushed).toEqual(['flush']);
    expect(updates).toEqual(['commit']);
    expect(attributes.get('data-navigation')).toBe('back');
    calls[0]!.finished.resolve();
    await flush();
    expect(attributes.has('data-navigation')).toBe(false);
  });

  test('a transition that ends after a newer one started leaves the newer direction in place', async () => {
    const { doc, attributes, calls } = stubDocument();
    const run = createViewTransitions({ document: doc, reducedMotion: () => false, flush: (u) => u() });
    run('forward', () => {});
    run('back', () => {});
    calls[0]!.finished.reject(new Error('skipped'));
    await flush();
    expect(attributes.get('data-navigation')).toBe('back');
    calls[1]!.finished.resolve();
    await flush();
    expect(attributes.has('data-navigation')).toBe(false);
  });

  test('a new transition skips the one still running', () => {
    const { doc, calls } = stubDocument();
    const run = createViewTransitions({ document: doc, reducedMotion: () => false, flush: (u) => u() });
    run('forward', () => {});
    expect(calls[0]!.skipped).toBe(false);
    run('back', () => {});
    expect(calls.map((c) => c.skipped)).toEqual([true, false]);
  });

  test('an update the browser does not call within the capture budget runs by itself, once', () => {
    vi.useFakeTimers();
    try {
      const { doc, attributes, calls } = stubDocument(true, { captures: false });
      const run = createViewTransitions({ document: doc, reducedMotion: () => false, flush: (u) => u() });
      const updates: string[] = [];
      run('back', () => updates.push('commit'));
      vi.advanceTimersByTime(CAPTURE_BUDGET_MS - 1);
      expect(updates).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(updates).toEqual(['commit']);
      expect(calls[0]!.skipped).toBe(true);
      expect(attributes.get('data-navigation')).toBe('back');
      // A capture that comes late after all does not render the commit a second time.
      calls[0]!.update();
      expect(updates).toEqual(['commit']);
    } finally {
      vi.useRealTimers();
    }
  });

  test('an update the browser called in time is not run again when the budget passes', () => {
    vi.useFakeTimers();
    try {
      const { doc } = stubDocument();
      const run = createViewTransitions({ document: doc, reducedMotion: () => false, flush: (u) => u() });
      const updates: string[] = [];
      run('forward', () => updates.push('commit'));
      vi.advanceTimersByTime(CAPTURE_BUDGET_MS * 2);
      expect(updates).toEqual(['commit']);
    } finally {
      vi.useRealTimers();
    }
  });

  test.each([
    ['the user asks for reduced motion', true, true],
    ['the browser has no view transitions', false, false],
  ])('none when %s: the update runs as it is', (_, supported, reduced) => {
    const { doc, attributes, calls } = stubDocument(supported);
    const run = createViewTransitions({ document: doc, reducedMotion: () => reduced, flush: (u) => u() });
    const updates: string[] = [];
    run('forward', () => updates.push('commit'));
    expect(updates).toEqual(['commit']);
    expect(calls).toEqual([]);
    expect(attributes.size).toBe(0);
  });
});

describe('the router', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A router whose transitions are recorded with the commit React would see inside each. */
  function recording() {
    const h = harness();
    const transitions: string[] = [];
    let inside = false;
    h.effects.viewTransition = (direction, update) => {
      inside = true;
      update();
      inside = false;
      transitions.push(direction);
    };
    const router = start(h);
    const heard: string[] = [];
    router.subscribe(() => heard.push(`${router.getSnapshot().commit}${inside ? ' inside' : ''}`));
    return { h, router, transitions, heard };
  }

  test('a navigation asked to animate commits inside one transition; the pending update does not', async () => {
    const { h, router, transitions, heard } = recording();
    const done = router.navigate('/a', { viewTransition: true });
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/a', 'a')));
    await done;
    expect(transitions).toEqual(['forward']);
    expect(heard).toEqual(['0', '1 inside']); // pending on, then the commit
    expect(h.history.at(-1)).toMatchObject({
      op: 'push',
      href: '/a',
      state: { index: 1, viewTransition: true },
    });
  });

  test('a loading state and the data filling it in: one transition, at the loading state', async () => {
    const { h, router, transitions } = recording();
    h.effects.hasLoadingState = () => true;
    const done = router.navigate('/slow', { viewTransition: true });
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/slow', 'slow', 1)));
    await done;
    h.fetches[1]!.reply.resolve(jsonResponse(prefetchAnswer('/slow', 'slow')));
    await flush();
    expect(router.getSnapshot().commit).toBe(2);
    expect(transitions).toEqual(['forward']);
  });

  test('without the option, no transition, and the entry is not marked', async () => {
    const { h, router, transitions } = recording();
    const done = router.navigate('/a');
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/a', 'a')));
    await done;
    expect(transitions).toEqual([]);
    expect(h.history.at(-1)!.state).toEqual({ key: 'k2', index: 1 });
  });

  test('back and forward across an entry entered with a transition run one, with their direction', async () => {
    const { h, router, transitions } = recording();
    const toA = router.navigate('/a', { viewTransition: true });
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/a', 'a')));
    await toA;
    const toB = router.navigate('/b');
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await toB;
    const [first, a, b] = ['/', '/a', '/b'].map((href) => h.history.findLast((e) => e.href === href)!.state);
    const to = (state: typeof first, href: string) => {
      h.location.href = `https://app.example${href}`;
      return router.onPopState(state!);
    };
    await to(a, '/a'); // back from /b, entered without one
    await to(first, '/'); // back from /a, entered with one
    await to(a, '/a'); // forward to /a
    await to(b, '/b'); // forward to /b
    expect(transitions).toEqual(['forward', 'back', 'forward']);
    expect(h.fetches).toHaveLength(2); // every page was held
  });

  test('a pop to a page not held commits inside the transition too', async () => {
    const { h, router, transitions } = recording();
    const toA = router.navigate('/a', { viewTransition: true });
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/a', 'a')));
    await toA;
    h.location.href = 'https://app.example/elsewhere';
    const back = router.onPopState({ key: 'unknown', index: 0 });
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/elsewhere', 'elsewhere')));
    await back;
    expect(transitions).toEqual(['forward', 'back']);
  });
});

describe('history state read back', () => {
  test('keeps a valid place and mark, and drops what is not ours', () => {
    expect(readHistoryEntry({ key: 'k', index: 3, viewTransition: true })).toEqual({
      key: 'k',
      index: 3,
      viewTransition: true,
    });
    expect(readHistoryEntry({ key: 'k', index: 'x', viewTransition: 'yes' })).toEqual({ key: 'k' });
    expect(readHistoryEntry({ key: 'k', index: 1.5 })).toEqual({ key: 'k' });
  });
});
