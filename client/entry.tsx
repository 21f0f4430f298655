/**
 * The browser entry, and the router's composition root: reads the state the server wrote,
 * loads the matched route's components (already modulepreloaded by the document), creates the
 * router with the browser's effects and hydrates the document with the tree the server
 * rendered.
 */
// Must run before any component module: it installs React Fast Refresh in development.
import '@vitejs/plugin-react/preamble';
import { hydrateRoot } from 'react-dom/client';
import { config } from 'virtual:switchyard/config';
import { modules as importers } from 'virtual:switchyard/routes';
import { filesOf, type PageState } from '../shared/page-state';
import { Assets } from './assets';
import { browserEffects, browserView, readHistoryEntry } from './browser-effects';
import { connectActions } from './call-server';
import { installDevtools } from './devtools/install';
import { createErrorReporting, whenHydrated } from './error-reporting';
import { createRouter } from './router';
import { RouterRoot } from './router-root';
import { receiveStreamed } from './streamed-receiver';

async function start(state: PageState): Promise<void> {
  // Before anything renders: streamed data may already be here, or still on its way.
  receiveStreamed(state, self as unknown as Record<string, unknown>);
  const effects = browserEffects(importers);
  const modules = await effects.loadModules(filesOf(state));
  if (import.meta.env.DEV) {
    // The dev server linked the page's CSS for the first paint; Vite's own style tags, which
    // hot updates change, hold it now that the modules ran.
    document.querySelectorAll('link[rel="stylesheet"][href*="?direct"]').forEach((link) => link.remove());
  }
  const router = createRouter({
    initial: { state, modules, history: readHistoryEntry(history.state) },
    effects,
    policy: { freshMs: config.prefetch.freshMs, staleMs: config.prefetch.staleMs },
    concurrency: config.prefetch.concurrency,
    routeScriptTimeoutMs: config.routeScriptTimeoutMs,
  });
  connectActions(router);
  // The router restores scroll positions itself, from what it saved for each entry.
  history.scrollRestoration = 'manual';
  addEventListener('popstate', (event) => void router.onPopState(readHistoryEntry(event.state)));
  addEventListener('pagehide', () => router.saveScroll());
  // Errors are caught from the first render; the Sentry SDK (with a DSN only) loads after hydration.
  const reporting = createErrorReporting(window.__SWITCHYARD_SENTRY__, async (sentry) =>
    (await import('./sentry-browser')).startSentry(sentry),
  );
  hydrateRoot(
    document,
    <RouterRoot router={router} head={<Assets scripts={[]} styles={[]} />} view={browserView} />,
    // The form state the server rendered with, or hydration would not match its forms.
    { ...reporting.rootOptions, formState: window.__SWITCHYARD_FORM__ ?? null },
  );
  void whenHydrated().then(reporting.start);
  // After hydration: the panel mounts a root of its own beside the app's.
  installDevtools(router, effects);
}

const state = window.__SWITCHYARD__;
if (state) {
  start(state).catch((error: unknown) => {
    console.error('switchyard: hydration failed', error);
  });
}
