/**
 * Navigations as the app sees them: each one starts once, with an id, and settles once with its
 * outcome, which its promise resolves to and a terminal event (`commit`, `abort` or `hard`) with
 * the same id tells every listener. Settling twice is a no-op, so the first outcome stands. A
 * listener that throws is reported and never stops the router or the other listeners.
 *
 * While someone listens, a navigation also records what the router did for it (its phases with
 * their times, the cache entry it found, its requests), handed over on the terminal event as
 * `details`. With no listener at its start it records nothing: `time` only runs the work.
 */
import type {
  NavigationDetails,
  NavigationEvent,
  NavigationKind,
  NavigationListener,
  NavigationOutcome,
  NavigationPhaseName,
} from './router-types.js';

/** One navigation under way: settle it once, with how it ended. */
export interface StartedNavigation {
  id: number;
  settle(outcome: NavigationOutcome): void;
  /** Resolves with the outcome; never rejects. */
  outcome: Promise<NavigationOutcome>;
  /**
   * Runs `work` as one of the navigation's phases: it ends when `work` returns, or when the
   * promise it returns settles. Each `request` counts as one of the navigation's requests.
   */
  time<T>(phase: NavigationPhaseName, work: () => T): T;
  /** Records what the router decided: the cache entry's status, whether a loading state showed. */
  note(facts: Pick<Partial<NavigationDetails>, 'entry' | 'loadingState'>): void;
}

export interface NavigationEvents {
  subscribe(listener: NavigationListener): () => void;
  /** Emits `start` and returns the navigation to settle. */
  start(kind: NavigationKind, url: string): StartedNavigation;
}

export const SUPERSEDED: NavigationOutcome = { status: 'aborted', reason: 'superseded' };

/**
 * `now` is the clock the phases are timed with, in milliseconds since the epoch (the router's
 * `effects.now`).
 */
export function createNavigationEvents(
  reportError: (message: string, error?: unknown) => void = console.error,
  now: () => number = () => 0,
): NavigationEvents {
  const listeners = new Set<NavigationListener>();
  let lastId = 0;

  function emit(event: NavigationEvent): void {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        reportError('switchyard: a navigation listener threw', error);
      }
    }
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    start(kind, url) {
      const id = ++lastId;
      let resolve!: (outcome: NavigationOutcome) => void;
      const outcome = new Promise<NavigationOutcome>((r) => (resolve = r));
      let settled = false;
      // Nothing is recorded for a navigation no one is told about.
      const details: NavigationDetails | undefined =
        listeners.size > 0 ? { phases: [], loadingState: false, requests: 0 } : undefined;
      emit({ type: 'start', id, url, kind });
      return {
        id,
        outcome,
        settle(result) {
          if (settled) return;
          settled = true;
          emit(terminalEvent(id, result, details));
          resolve(result);
        },
        time(phase, work) {
          if (!details || settled) return work();
          const start = now();
          const end = () => void details.phases.push({ name: phase, start, end: now() });
          if (phase === 'request') details.requests++;
          const result = work();
          if (result instanceof Promise) result.then(end, end);
          else end();
          return result;
        },
        note(facts) {
          if (details && !settled) Object.assign(details, facts);
        },
      };
    },
  };
}

function terminalEvent(
  id: number,
  outcome: NavigationOutcome,
  details: NavigationDetails | undefined,
): NavigationEvent {
  const told = details ? { details } : {};
  switch (outcome.status) {
    case 'committed':
      return { type: 'commit', id, url: outcome.url, redirected: outcome.redirected, ...told };
    case 'aborted':
      return { type: 'abort', id, reason: outcome.reason, ...told };
    case 'hard':
      return { type: 'hard', id, url: outcome.url, ...told };
  }
}
