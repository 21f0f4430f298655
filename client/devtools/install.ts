/**
 * What every page carries of the devtools, and no more: `window.__SWITCHYARD_DEVTOOLS__()`, which
 * loads their API (api.ts) and resolves to it, and the three ways the panel is asked for: open in
 * development unless it was closed there before (remembered in `localStorage`), `?devtools` in
 * the URL, and Alt+Shift+D when no field has the keyboard. Their code loads only then.
 */
import type { RouterEffects } from '../router-types.js';
import type { Router } from '../router.js';
import type { DevtoolsApi } from './api.js';

declare global {
  interface Window {
    /** Loads the devtools' API (once) and resolves to it. */
    __SWITCHYARD_DEVTOOLS__?: () => Promise<DevtoolsApi>;
  }
}

/** Whether a key press is someone typing: the shortcut is then theirs, not ours. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function installDevtools(router: Router, effects: Pick<RouterEffects, 'now'>): void {
  let api: Promise<DevtoolsApi> | undefined;
  // The clock patches `effects.now`, which the router reads: it moves the router's own clock.
  const load = () => (api ??= import('./api.js').then((m) => m.createDevtoolsApi(router, effects)));
  window.__SWITCHYARD_DEVTOOLS__ = load;
  // Opening, closing and remembering the panel are its own code, loaded when it may open.
  const toggle = (atStart: boolean) =>
    void Promise.all([load(), import('./panel.js')]).then(([devtools, { togglePanel }]) =>
      togglePanel(router, devtools, atStart),
    );
  // Whether it opens with the page the panel's code decides: production loads it for that only
  // with `?devtools` in the URL, and reads no storage.
  if (import.meta.env.DEV || new URLSearchParams(location.search).has('devtools')) toggle(true);
  addEventListener('keydown', (event) => {
    if (event.altKey && event.shiftKey && event.code === 'KeyD' && !isTyping(event.target)) toggle(false);
  });
}
