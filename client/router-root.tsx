/**
 * The root of the React tree on both sides: reads the router's snapshot, renders the page, and
 * once per commit lets the view move scroll and focus and announce the new page. A later update
 * of the same commit (a navigation starting: `pending`) never applies them again, and renders
 * nothing, not even this root: it reads a snapshot that changes only with the page, so only the
 * components that read `pending` themselves re-render.
 */
import { useEffect, useLayoutEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { AppErrorBoundary } from './error-boundary.js';
import { renderRoute, type ModuleMap } from './render-route.js';
import type { Router, RouterSnapshot } from './router.js';
import { RouterContext } from './router-context.js';

export interface RouterView {
  afterCommit(snapshot: RouterSnapshot): void;
}

/** Calls `view.afterCommit` for each commit number once, whatever else changes in between. */
export function oncePerCommit(view: RouterView | undefined): (snapshot: RouterSnapshot) => void {
  let applied: number | undefined;
  return (snapshot) => {
    if (snapshot.commit === applied) return;
    applied = snapshot.commit;
    view?.afterCommit(snapshot);
  };
}

/**
 * `getSnapshot` as the root reads it: a new object only when the page does (its commit number,
 * state or modules). A navigation starting or ending without a commit (`pending`), and the
 * loaded router taking over from the lazy one's snapshot of the same page, render nothing here.
 */
export function readCommitted(getSnapshot: () => RouterSnapshot): () => RouterSnapshot {
  let last: RouterSnapshot | undefined;
  return () => {
    const next = getSnapshot();
    if (!last || next.commit !== last.commit || next.state !== last.state || next.modules !== last.modules)
      last = next;
    return last;
  };
}

/**
 * `assets` are the route's scripts and styles, which the server has React put in `<head>`
 * (assets.tsx); the browser finds them there and passes none.
 */
export function RouterRoot({
  router,
  assets,
  view,
}: {
  router: Router;
  assets?: ReactNode;
  view?: RouterView;
}) {
  const read = useMemo(() => readCommitted(router.getSnapshot), [router]);
  const snapshot = useSyncExternalStore(router.subscribe, read, read);
  const [afterCommit] = useState(() => oncePerCommit(view));
  useLayoutEffect(() => afterCommit(snapshot), [afterCommit, snapshot]);
  // Effects run only in the browser, after hydration committed: tests and tools wait on this.
  useEffect(() => {
    document.documentElement.dataset.hydrated = '';
  }, []);
  const { state, modules } = snapshot;
  return useMemo(
    () => (
      <RouterContext.Provider value={{ router, state }}>
        <AppErrorBoundary>{renderRoute(state, modules as ModuleMap, assets)}</AppErrorBoundary>
      </RouterContext.Provider>
    ),
    [router, state, modules, assets],
  );
}
