/**
 * The root of the React tree on both sides: reads the router's snapshot, renders the page, and
 * after each commit lets the view move scroll and focus and announce the new page.
 */
import { useLayoutEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { AppErrorBoundary } from './error-boundary';
import { renderRoute, type ComponentMap } from './render-route';
import type { Router, RouterSnapshot } from './router';
import { RouterContext } from './router-context';

export interface RouterView {
  afterCommit(snapshot: RouterSnapshot): void;
}

export function RouterRoot({ router, head, view }: { router: Router; head: ReactNode; view?: RouterView }) {
  const snapshot = useSyncExternalStore(router.subscribe, router.getSnapshot, router.getSnapshot);
  useLayoutEffect(() => {
    view?.afterCommit(snapshot);
  }, [view, snapshot]);
  const value = useMemo(() => ({ router, state: snapshot.state }), [router, snapshot.state]);
  return (
    <RouterContext.Provider value={value}>
      <AppErrorBoundary>
        {renderRoute(snapshot.state, snapshot.modules as ComponentMap, head)}
      </AppErrorBoundary>
    </RouterContext.Provider>
  );
}
