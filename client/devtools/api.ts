/**
 * The devtools' API, in a chunk of its own: `await window.__SWITCHYARD_DEVTOOLS__()` loads it
 * (install.ts), and so does the panel, which draws from the same API. Its clock starts at real
 * time when it loads: nothing could have moved it before.
 */
import type { DevtoolsSnapshot, NavigationOutcome, RouterEffects } from '../router-types.js';
import type { Router } from '../router.js';
import { createDevtoolsClock } from './clock.js';
import { devtoolsSnapshot } from './snapshot.js';

/**
 * What `window.__SWITCHYARD_DEVTOOLS__()` resolves to: a read-only snapshot, the clock's buttons,
 * and a refresh (the app's pages need no refresh button of their own to try one from the console).
 */
export interface DevtoolsApi {
  snapshot(): DevtoolsSnapshot & { clockOffset: number };
  /** `router.refresh()`: the page on screen (and, under a modal, the page below it) loaded again. */
  refresh(): Promise<NavigationOutcome>;
  /** Moves the router's clock ahead by `ms` (statuses change as if that time had passed). */
  moveClock(ms: number): void;
  resetClock(): void;
}

export function createDevtoolsApi(router: Router, effects: Pick<RouterEffects, 'now'>): DevtoolsApi {
  const clock = createDevtoolsClock(effects);
  return Object.freeze({
    snapshot: () => ({ ...devtoolsSnapshot(router), clockOffset: clock.offset() }),
    moveClock: clock.move,
    resetClock: clock.reset,
    refresh: () => router.refresh(),
  });
}
