/**
 * What the router did for a navigation, for its listeners: each phase with its start and end
 * on the clock it is given, the cache entry's status, whether a loading state showed, and its
 * page-data requests, handed over when the navigation settles. Recorded only when someone
 * listened at the start: otherwise `time` just runs the work and nothing is kept.
 */
import type { StartedNavigation } from './navigation-events.js';
import type { NavigationDetails, NavigationPhaseName } from './router-types.js';

/** A navigation the router runs, with what it does recorded. */
export interface TimedNavigation extends StartedNavigation {
  /**
   * Runs `work` as one of the navigation's phases: it ends when `work` returns, or when the
   * promise it returns settles. Each `request` counts as one of the navigation's requests.
   */
  time<T>(phase: NavigationPhaseName, work: () => T): T;
  /** Records what the router decided: the cache entry's status, whether a loading state showed. */
  note(facts: Pick<Partial<NavigationDetails>, 'entry' | 'loadingState'>): void;
}

export function timeNavigation(
  started: StartedNavigation,
  listened: boolean,
  now: () => number,
): TimedNavigation {
  const details: NavigationDetails | undefined = listened
    ? { phases: [], loadingState: false, requests: 0 }
    : undefined;
  let settled = false;
  return {
    id: started.id,
    outcome: started.outcome,
    settle(outcome) {
      settled = true;
      started.settle(outcome, details);
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
}
