/**
 * Wires the devtools: the read-only snapshot at
 * `window.__SWITCHYARD_DEVTOOLS__.snapshot()` always, and the panel — open in development unless
 * it was closed there before (remembered in `localStorage`), with `?devtools` in the URL, and on
 * Alt+Shift+D when no field has the keyboard. The panel's code loads only then.
 */
import type { DevtoolsSnapshot, NavigationOutcome, RouterEffects } from '../router-types.js';
import type { Router } from '../router.js';
import { createDevtoolsClock } from './clock.js';

/**
 * What `window.__SWITCHYARD_DEVTOOLS__` offers: a read-only snapshot, the clock's buttons, and a
 * refresh (the app's pages need no refresh button of their own to try one from the console).
 */
export interface DevtoolsApi {
  snapshot(): DevtoolsSnapshot & { clockOffset: number };
  /** `router.refresh()`: the page on screen (and, under a modal, the page below it) loaded again. */
  refresh(): Promise<NavigationOutcome>;
  /** Moves the router's clock ahead by `ms` (statuses change as if that time had passed). */
  moveClock(ms: number): void;
  resetClock(): void;
}

declare global {
  interface Window {
    __SWITCHYARD_DEVTOOLS__?: DevtoolsApi;
  }
}

/** Whether a key press is someone typing: the shortcut is then theirs, not ours. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function installDevtools(router: Router, effects: Pick<RouterEffects, 'now'>): void {
  const clock = createDevtoolsClock(effects);
  window.__SWITCHYARD_DEVTOOLS__ = Object.freeze({
    snapshot: () => ({ ...router.devtools(), clockOffset: clock.offset() }),
    moveClock: clock.move,
    resetClock: clock.reset,
    refresh: () => router.refresh(),
  });
  // Opening, closing and remembering the panel are its own code, loaded when it may open.
  const toggle = (atStart: boolean) =>
    void import('./panel.js').then(({ togglePanel }) => togglePanel(router, atStart));
  // Whether it opens with the page the panel's code decides: production loads it for that only
  // with `?devtools` in the URL, and reads no storage.
  if (import.meta.env.DEV || new URLSearchParams(location.search).has('devtools')) toggle(true);
  addEventListener('keydown', (event) => {
    if (event.altKey && event.shiftKey && event.code === 'KeyD' && !isTyping(event.target)) toggle(false);
  });
}
