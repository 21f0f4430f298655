/**
 * The browser side of the router's effects: history, fetch, dynamic imports, timers and the
 * route table's matching, for `createRouter` (tests pass their own). Loaded with the router,
 * after the first paint (`start-router.ts`); what the first paint needs is in browser-view.ts.
 */
import { flushSync } from 'react-dom';
import { loadRouteModules, pageEffects, type Importers } from './browser-start.js';
import { readElementScroll } from './element-scroll.js';
import type { RouteTableEntry } from '../shared/route-table.js';
import { routeEffects } from './route-effects.js';
import type { PrefetchTrigger, RouterEffects, SlotRules } from './router-types.js';
import { createViewTransitions } from './view-transition.js';

const LAST_HARD_NAVIGATION = 'switchyard:last-hard-navigation';

/**
 * `routes`: the build's route table; `onDemand`: what only some apps load, the slots' rules
 * (`slot-rules.ts`) for an app with slots, and the interception matcher
 * (`route-interception.ts`) for one that intercepts.
 */
export function browserEffects(
  importers: Importers,
  routes: readonly RouteTableEntry[],
  onDemand: {
    interceptionOf?: RouterEffects['interceptionOf'] | undefined;
    slotRules?: SlotRules | undefined;
  } = {},
): RouterEffects {
  const loadModules = (files: readonly string[]) => loadRouteModules(importers, files);
  let keys = 0;
  return {
    ...pageEffects,
    pushState: (state, href) => history.pushState(state, '', href),
    replaceState: (state, href) => history.replaceState(state, '', href),
    fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
    bodyBytesOnWire: (url) => {
      const entry = performance.getEntriesByName(new URL(url, location.href).href, 'resource').at(-1);
      // A transfer size of 0: the answer did not cross the network, or the browser will not say.
      // Past that, the body's own size: the transfer size's share for headers is a fixed 300 bytes.
      return entry && (entry as PerformanceResourceTiming).transferSize > 0
        ? (entry as PerformanceResourceTiming).encodedBodySize
        : undefined;
    },
    loadModules,
    ...routeEffects(routes, loadModules),
    ...(onDemand.interceptionOf ? { interceptionOf: onDemand.interceptionOf } : {}),
    ...(onDemand.slotRules ? { slotRules: onDemand.slotRules } : {}),
    readScroll() {
      const elements = readElementScroll();
      return { x: scrollX, y: scrollY, ...(elements ? { elements } : {}) };
    },
    // Epoch milliseconds on the performance timeline's clock, which never jumps with the system
    // clock, and which the Sentry SDK times spans with: a navigation's phases line up with them.
    now: () => performance.timeOrigin + performance.now(),
    storage: {
      get: () => sessionStorage.getItem(LAST_HARD_NAVIGATION),
      set: (value) => sessionStorage.setItem(LAST_HARD_NAVIGATION, value),
    },
    newKey: () => `${Date.now().toString(36)}-${(keys++).toString(36)}`,
    reportError: (message, error) => console.error(message, error),
    viewTransition: createViewTransitions({
      document,
      reducedMotion: () => matchMedia('(prefers-reduced-motion: reduce)').matches,
      // The router's listeners are React's: the commit renders inside the transition's callback.
      flush: (update) => flushSync(update),
    }),
    canPrefetch: (trigger) => {
      // Development serves every module fresh: prefetching would only slow it down.
      if (import.meta.env.DEV) return false;
      return prefetchAllowed(trigger, (navigator as { connection?: ConnectionHints }).connection);
    },
  };
}

/** What the Network Information API tells about the user's link (Chromium only). */
export interface ConnectionHints {
  saveData?: boolean;
  effectiveType?: string;
}

/**
 * The user asked to save data: no prefetch at all. A link measured as 2G (or slower): only
 * what the user points at or the app asks for, never every link that scrolls into view.
 */
export function prefetchAllowed(trigger: PrefetchTrigger, connection: ConnectionHints | undefined): boolean {
  if (connection?.saveData === true) return false;
  const slow = connection?.effectiveType === '2g' || connection?.effectiveType === 'slow-2g';
  return !(slow && trigger === 'viewport');
}
