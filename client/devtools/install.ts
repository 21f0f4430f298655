/**
 * Wires the devtools (SPEC C10): the read-only snapshot at
 * `window.__SWITCHYARD_DEVTOOLS__.snapshot()` always, and the panel — open in development, and
 * in production with `?devtools` in the URL or Alt+Shift+D. The panel's code loads only then.
 */
import type { DevtoolsSnapshot } from '../prefetcher';
import type { Router } from '../router';

declare global {
  interface Window {
    __SWITCHYARD_DEVTOOLS__?: { snapshot(): DevtoolsSnapshot };
  }
}

export function installDevtools(router: Router): void {
  window.__SWITCHYARD_DEVTOOLS__ = Object.freeze({ snapshot: () => router.devtools() });
  let close: (() => void) | undefined;
  const toggle = () => {
    if (close) {
      close();
      return;
    }
    void import('./panel').then(({ mountDevtools }) => {
      close = mountDevtools(router, () => (close = undefined));
    });
  };
  if (import.meta.env.DEV || new URLSearchParams(location.search).has('devtools')) toggle();
  addEventListener('keydown', (event) => {
    if (event.altKey && event.shiftKey && event.code === 'KeyD') toggle();
  });
}
