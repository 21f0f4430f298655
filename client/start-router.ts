/**
 * The router's code a first paint does not need, in a chunk of its own: the entry
 * (`lazy-router.ts`) imports it once the page has hydrated, or at the first link that comes
 * into view, is hovered or clicked. It builds the browser's effects and the router (with the
 * slots' rules, loaded for an app with slots, and the interception matcher, for an app that
 * intercepts), takes over scroll restoration from the browser, and wires the devtools.
 */
import type { RouterConfig } from '../shared/router-config.js';
import { browserEffects } from './browser-effects.js';
import type { Importers } from './browser-start.js';
import type { RouteTableEntry } from '../shared/route-table.js';
export { browserView } from './browser-view.js';
import { installDevtools } from './devtools/install.js';
import type { BlockerGate } from './blocker-gate.js';
import type { NavigationEvents } from './navigation-events.js';
import { createRouter } from './router.js';
import type { Router, RouterOptions } from './router-types.js';

export async function startRouter(
  initial: RouterOptions['initial'],
  app: { importers: Importers; routes: readonly RouteTableEntry[]; slots: boolean; intercepts: boolean },
  config: Pick<RouterConfig, 'prefetch' | 'routeScriptTimeoutMs'>,
  events: NavigationEvents,
  blockers: BlockerGate,
): Promise<Router> {
  // What only some apps need, each in a chunk of its own: the slots' rules in an app with slots,
  // the interception matcher in an app with intercepting routes.
  const [slotRules, interceptionOf] = await Promise.all([
    app.slots ? import('./slot-rules.js').then((m) => m.slotRules) : undefined,
    app.intercepts
      ? import('./route-interception.js').then((m) => m.interceptionOf(Object.keys(app.importers)))
      : undefined,
  ]);
  const effects = browserEffects(app.importers, app.routes, { slotRules, interceptionOf });
  const router = createRouter({
    initial,
    effects,
    events,
    blockers,
    policy: { freshMs: config.prefetch.freshMs, staleMs: config.prefetch.staleMs },
    concurrency: config.prefetch.concurrency,
    routeScriptTimeoutMs: config.routeScriptTimeoutMs,
  });
  // The router restores scroll positions itself, from what it saved for each entry.
  history.scrollRestoration = 'manual';
  installDevtools(router, effects);
  return router;
}
