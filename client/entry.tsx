/**
 * The browser entry, and the router's composition root: reads the state the server wrote,
 * loads the matched route's components (already modulepreloaded by the document) and hydrates
 * the document with the tree the server rendered. The router's navigation code loads after
 * that, in a chunk of its own (`lazy-router.ts` says when, and what a click does meanwhile).
 */
// Must run before any component module: it installs React Fast Refresh in development.
import '@vitejs/plugin-react/preamble';
import { hydrateRoot } from 'react-dom/client';
import { config } from 'virtual:switchyard/config';
import { modules as importers, intercepts, routes, slots } from 'virtual:switchyard/routes';
import { filesOf, type PageState } from '../shared/page-state.js';
import { firstView, loadRouteModules, pageEffects, readHistoryEntry } from './browser-start.js';
import { connectActions } from './call-server.js';
import { createErrorReporting } from './error-reporting.js';
import { createLazyRouter } from './lazy-router.js';
import { RouterRoot } from './router-root.js';
import { receiveStreamed } from './streamed-receiver.js';

async function start(state: PageState): Promise<void> {
  // Before anything renders: streamed data may already be here, or still on its way.
  receiveStreamed(state, self as unknown as Record<string, unknown>);
  const modules = await loadRouteModules(importers, filesOf(state));
  if (import.meta.env.DEV) {
    // The dev server linked the page's CSS for the first paint; Vite's own style tags, which
    // hot updates change, hold it now that the modules ran.
    document.querySelectorAll('link[rel="stylesheet"][href*="?direct"]').forEach((link) => link.remove());
  }
  const initial = { state, modules, history: readHistoryEntry(history.state) };
  // Every commit but the first comes from the router, whose chunk brings the view for it.
  let view = firstView;
  const router = createLazyRouter({
    initial,
    async load(events, blockers) {
      const started = await import('./start-router.js');
      view = started.browserView;
      return started.startRouter(initial, { importers, routes, slots, intercepts }, config, events, blockers);
    },
    effects: pageEffects,
    budgetMs: config.routeScriptTimeoutMs,
  });
  connectActions(router);
  addEventListener('popstate', (event) => void router.onPopState(readHistoryEntry(event.state)));
  addEventListener('pagehide', () => router.saveScroll());
  // Errors are caught from the first render; the Sentry SDK (with a DSN only) loads after hydration.
  const reporting = createErrorReporting(window.__SWITCHYARD_SENTRY__, async (sentry) =>
    (await import('./sentry-browser.js')).startSentry(sentry, { state, importers, router }),
  );
  // The first commit is the end of hydration (or of its failure, which an error boundary shows).
  let hydrated!: () => void;
  const hydration = new Promise<void>((resolve) => (hydrated = resolve));
  hydrateRoot(
    document,
    <RouterRoot
      router={router}
      view={{
        afterCommit(snapshot) {
          view.afterCommit(snapshot);
          hydrated();
        },
      }}
    />,
    // The form state the server rendered with, or hydration would not match its forms.
    { ...reporting.rootOptions, formState: window.__SWITCHYARD_FORM__ ?? null },
  );
  await hydration;
  void reporting.start();
  // Links in view have usually asked for the router already; if not, it loads now. Tests and
  // tools wait on `data-router` for a page whose links navigate without a full load.
  router.ready().then(
    () => (document.documentElement.dataset.router = 'ready'),
    () => {}, // reported by the lazy router; links now load pages in full
  );
}

const state = window.__SWITCHYARD__;
if (state) {
  start(state).catch((error: unknown) => {
    console.error('switchyard: hydration failed', error);
  });
}
