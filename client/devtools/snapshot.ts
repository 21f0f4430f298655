/**
 * The devtools snapshot: a read-only copy of the prefetch cache, the queue and the budget, made
 * from what `router.devtools()` hands over. It lives here, with the devtools, so that the router
 * a page loads carries none of it; the tests import it to read a router's cache. It imports
 * nothing of the router's code (only its types): see `DevtoolsSource`.
 */
import { viewEntries } from '../../shared/entry-view.js';
import type { DevtoolsSnapshot, Router } from '../router-types.js';

export function devtoolsSnapshot(router: Pick<Router, 'devtools'>): DevtoolsSnapshot {
  const { now, settings, cache, queue, budget, deferred, isPartial } = router.devtools();
  const running = queue.running();
  const waiting = queue.waiting();
  return {
    now,
    settings,
    entries: viewEntries(cache, now).map((view) => {
      const result = cache.get(view.key)?.result;
      const page = result?.state === 'resolved' ? result.value : undefined;
      return {
        ...view,
        partial: page !== undefined && isPartial(page),
        queued: running.includes(view.key) ? 'running' : waiting.includes(view.key) ? 'waiting' : null,
      };
    }),
    queue: { running, waiting },
    budget: {
      limitBytes: budget.limit,
      spentBytes: budget.spent,
      inFlight: budget.inFlight,
      deferred: deferred.map((d) => d.href),
    },
  };
}
