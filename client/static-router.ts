/**
 * The router the server renders with: it holds one page and never moves. Giving the server the
 * same `RouterRoot` as the browser keeps the two trees identical for hydration.
 */
import {
  PREFETCH_BUDGET_BYTES,
  PREFETCH_CONCURRENCY,
  PREFETCH_TIMEOUT_MS,
  ROUTE_SCRIPT_TIMEOUT_MS,
} from '../shared/constants.js';
import type { PageState } from '../shared/page-state.js';
import { DEFAULT_POLICY } from '../shared/prefetch-status.js';
import { createBlockerGate } from './blocker-gate.js';
import type { Modules, Router, RouterSnapshot } from './router.js';

export function createStaticRouter(state: PageState, modules: Modules): Router {
  const snapshot: RouterSnapshot = {
    state,
    modules,
    href: state.url,
    commit: 0,
    scroll: { kind: 'keep' },
    announce: false,
    pending: false,
  };
  const unavailable = () =>
    Promise.reject(new Error('switchyard: the router cannot navigate during a server render'));
  return {
    subscribe: () => () => {},
    getSnapshot: () => snapshot,
    navigate: unavailable,
    refresh: unavailable,
    revalidate: unavailable,
    onPopState: unavailable,
    back: () => {},
    forward: () => {},
    saveScroll: () => {},
    prefetch: () => Promise.resolve({ status: 'skipped' }),
    invalidate: () => {},
    onNavigation: () => () => {},
    // Hooks register in effects, which never run on the server.
    blockers: createBlockerGate({ currentHref: () => `http://localhost${state.url}`, go: () => {} }),
    devtools: () => ({
      now: 0,
      settings: {
        ...DEFAULT_POLICY,
        concurrency: PREFETCH_CONCURRENCY,
        routeScriptTimeoutMs: ROUTE_SCRIPT_TIMEOUT_MS,
        prefetchTimeoutMs: PREFETCH_TIMEOUT_MS,
      },
      entries: [],
      queue: { running: [], waiting: [] },
      budget: { limitBytes: PREFETCH_BUDGET_BYTES, spentBytes: 0, inFlight: 0, deferred: [] },
    }),
  };
}
