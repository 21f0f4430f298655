/**
 * The browser entry: reads the state the server wrote, loads the matched route's components
 * (already modulepreloaded by the document) and hydrates the whole document with the same tree
 * the server rendered (SPEC N1).
 */
// Must run before any component module: it installs React Fast Refresh in development.
import '@vitejs/plugin-react/preamble';
import { hydrateRoot } from 'react-dom/client';
import { modules } from 'virtual:switchyard/routes';
import type { PageState } from '../shared/page-state';
import { Assets } from './assets';
import { renderRoute, type AnyComponent } from './render-route';

async function hydrate(state: PageState): Promise<void> {
  const files = state.segments.flatMap((s) => Object.values(s.files));
  if (state.notFound) files.push(state.notFound);
  const loaded = await Promise.all(files.map((file) => modules[file]!()));
  const components = new Map(files.map((file, i) => [file, loaded[i]!.default as AnyComponent]));
  hydrateRoot(document, renderRoute(state, components, <Assets scripts={[]} styles={[]} />));
}

const state = window.__SWITCHYARD__;
if (state) {
  hydrate(state).catch((error: unknown) => {
    console.error('switchyard: hydration failed', error);
  });
}
