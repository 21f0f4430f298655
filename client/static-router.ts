/**
 * The router the server renders with: it holds one page and never moves. Giving the server the
 * same `RouterRoot` as the browser keeps the two trees identical for hydration.
 */
import type { PageState } from '../shared/page-state.js';
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
    // No cache and no queue on the server: the devtools show the browser's.
    devtools() {
      throw new Error('switchyard: the router has no prefetch cache during a server render');
    },
  };
}
