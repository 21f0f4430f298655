/**
 * The router core: a plain store (`subscribe`, `getSnapshot`) with `navigate`, `refresh`,
 * `back`, `forward` and `prefetch`. No React and no browser globals here: history, fetch,
 * module loading, timers, the clock and the hard navigation are passed in
 * (`browser-effects.ts` in the browser, fakes in the tests). This file wires the pieces and
 * starts navigations; each piece is a module of its own:
 *
 *   screen.ts           the snapshot, its history entry and the held pages; the one `commit()`,
 *                       and the phase (`idle | loading | filling`) that `pending` derives from
 *   soft-navigation.ts  one navigation carried out, step by step (below); the one attempt in
 *                       flight, which a newer one aborts
 *   first-render.ts     its first render, from a cache entry or a fetch of its own
 *   page-fetch.ts       the one page-data request, for navigations and prefetches
 *   prefetcher.ts       the prefetch cache and the queue that fills it
 *
 * A navigation goes through five steps (docs/navigation.md draws them):
 *   1. choose its source: the prefetch cache's entry, or a fetch of its own (`go` here, with the
 *      rule in shared/cache-decision.ts);
 *   2. wait for its first render (`fromEntry`, `fetchOwn`; the phase is `loading`): the scripts
 *      have 3800 ms from when the page data is in; a prefetch still on its way is waited for
 *      within that budget from the click;
 *   3. commit it (`commit`): history, the held page, one snapshot with its scroll and announcement;
 *   4. fill in what a loading state stands for (`fillIn`; the phase is `filling`);
 *   5. fall back (`fallBack`) to a full page load when the budget runs out or page data fails,
 *      never twice in a row to one URL.
 * Back and forward restore the pages the screen holds without a request, and never consult the
 * cache. Every navigation, whatever starts it, is started once in `events`
 * (navigation-events.ts) and settled once: the promise a caller gets resolves to that outcome.
 */
import { chooseSource } from '../shared/cache-decision.js';
import { ROUTE_SCRIPT_TIMEOUT_MS } from '../shared/constants.js';
import { createBlockerGate } from './blocker-gate.js';
import type { CacheSource } from './first-render.js';
import { toLocal } from './lazy-router.js';
import { timeNavigation, type TimedNavigation } from './navigation-details.js';
import { createNavigationEvents } from './navigation-events.js';
import { createPageFetcher } from './page-fetch.js';
import { createPrefetcher } from './prefetcher.js';
import type {
  HistoryEntryState,
  NavigationKind,
  NavigationOutcome,
  Router,
  RouterEffects,
  RouterOptions,
} from './router-types.js';
import type { ScrollIntent } from './router-types.js';
import { createScreen } from './screen.js';
import { createSoftNavigation, mainOf, pathAndSearch } from './soft-navigation.js';
import type { NavigationDirection } from './view-transition.js';

export type {
  HistoryEntryState,
  Modules,
  NavigateOptions,
  NavigationEvent,
  NavigationKind,
  NavigationListener,
  NavigationOutcome,
  PrefetchOutcome,
  Router,
  RouterEffects,
  RouterOptions,
  RouterSnapshot,
  SavedScroll,
  ScrollIntent,
} from './router-types.js';

export function createRouter(options: RouterOptions): Router {
  const { initial, routeScriptTimeoutMs = ROUTE_SCRIPT_TIMEOUT_MS } = options;
  // Push, replace, back and forward go through the blockers' gate.
  const blockers = options.blockers ?? createBlockerGate(options.effects);
  // A full load the router makes leaves without a prompt. The other effects are read through the
  // prototype: a devtools clock that patches `now` later is seen.
  const effects = Object.create(options.effects) as RouterEffects;
  effects.assign = (href) => {
    blockers.leaving();
    options.effects.assign(href);
  };
  const pages = createPageFetcher(effects, initial.state.buildId, routeScriptTimeoutMs);
  const prefetcher = createPrefetcher({
    effects,
    pages,
    currentPage: () => mainOf(screen.getSnapshot()),
    currentState: () => (screen.layoutsOutOfDate() ? undefined : screen.getSnapshot().state),
    policy: options.policy,
    concurrency: options.concurrency,
  });
  const events = options.events ?? createNavigationEvents(effects.reportError);
  /** Starts a navigation, recording what it does while someone listens (navigation-details.ts). */
  const startNavigation = (kind: NavigationKind, url: string) =>
    timeNavigation(events.start(kind, url), events.listening(), effects.now);
  const screen = createScreen(effects, initial);
  /** The navigations that commit inside a view transition, and its direction. */
  const transitions = new WeakMap<TimedNavigation, NavigationDirection>();
  const navigation = createSoftNavigation({
    effects,
    screen,
    routeScriptTimeoutMs,
    pages,
    prefetcher,
    transitionOf: (started) => transitions.get(started),
  });

  /**
   * A path's data changed (a server action said so): its cache entries go, pages held for back
   * and forward that show it are fetched again on return, and a changed layout's data on screen
   * is out of date until a page from the server commits. An action that redirects only
   * invalidates before it navigates; `revalidate` also refreshes the page on screen.
   */
  function invalidate(path: string, scope: 'page' | 'layout' = 'page'): void {
    prefetcher.invalidate(path, scope);
    screen.held.markStale([{ path, type: scope }]);
    if (scope === 'layout') screen.markLayoutsChanged();
  }

  /** The refresh that waits for the navigation on its way: every refresh asked meanwhile joins it. */
  let queued: Promise<NavigationOutcome> | undefined;
  /** The last refresh started: a hash moved on the page it refreshes leaves it going. */
  let refreshing: TimedNavigation | undefined;

  /**
   * The page on screen again from the server, client state kept: a navigation of kind `refresh`.
   * A navigation on its way to its first render goes on, its answer maybe older than the change:
   * its page is refreshed once it ends, unless the browser loads a page in full.
   */
  function reload(): Promise<NavigationOutcome> {
    const { href, pending } = screen.getSnapshot();
    const going = pending && navigation.current();
    if (going)
      return (queued ??= going.outcome.then((outcome) => {
        queued = undefined;
        return outcome.status === 'hard' ? outcome : reload();
      }));
    const started = (refreshing = startNavigation('refresh', href));
    return navigation.run(started, {
      href,
      kind: 'refresh',
      scroll: { kind: 'keep' },
      key: screen.entry().key,
    });
  }

  /** A push or replace within the app, once no blocker holds it. */
  function go(started: TimedNavigation, target: URL, replace: boolean, scroll: boolean): void {
    const kind = replace ? 'replace' : 'push';
    const hash = target.hash ? { kind: 'hash' as const, id: target.hash.slice(1) } : undefined;
    const intent: ScrollIntent = !scroll ? { kind: 'keep' } : (hash ?? { kind: 'top' });
    // Only the hash changed on the page on screen (during a back or forward still on its way,
    // the address bar is elsewhere already): no data to fetch, the page stays, the anchor moves.
    // A navigation on its way to its first render is superseded, as by any newer one, but a
    // refresh of this very page; if it had cut short the filling of this page's loading state,
    // what that state stands for is fetched again.
    const { href: shown, pending, state } = screen.getSnapshot();
    if (hash && pathAndSearch(target.href) === pathAndSearch(shown)) {
      const href = toLocal(target.href);
      const key = replace ? screen.entry().key : effects.newKey();
      const going = pending && navigation.current();
      const superseding = going && going !== refreshing;
      if (superseding) navigation.cancel(started);
      const phase = superseding ? 'idle' : undefined;
      screen.commit({ href, history: { kind, key }, scroll: intent, announce: false, phase });
      started.settle({ status: 'committed', url: href, redirected: false });
      // (A refresh waiting for the click starts as the click ends: it fetches that too.)
      if (superseding && state.pendingAt !== undefined && !queued) void reload();
      return;
    }
    // Step 1: the cache decision.
    const found = started.time('cache', () => prefetcher.lookup(target));
    started.note({ entry: found?.status ?? 'missing' });
    let source: CacheSource | undefined;
    if (found && chooseSource(found) === 'entry' && found.status !== 'expired') {
      prefetcher.use(found.entry);
      source = { entry: found.entry, status: found.status, intercepted: found.intercepted };
    }
    // The page's own prefetches stop, and none starts until the navigation ends: it has the
    // user's link to itself.
    const release = prefetcher.navigating(source?.entry.key);
    void started.outcome.then(release);
    void navigation.run(started, { href: target.href, kind, scroll: intent, key: effects.newKey(), source });
  }

  /**
   * Back or forward: a page held for the entry, and not marked stale, comes back with no request.
   * One left while its loading state showed is fetched again: nothing would fill it in.
   */
  function pop(entry: HistoryEntryState | null): Promise<NavigationOutcome> {
    const held = entry ? screen.held.get(entry.key) : undefined;
    const href = toLocal(effects.currentHref());
    const pending = { kind: 'pop', currentUrl: screen.getSnapshot().href, nextUrl: href } as const;
    const pass = blockers.pop(entry, screen.entry(), pending, () => startNavigation('pop', href));
    if (!pass.started) return pass.outcome;
    const { started } = pass;
    const transition = screen.arrive(entry, href);
    if (transition) transitions.set(started, transition);
    void started.outcome.then(prefetcher.navigating());
    const saved = held?.scroll ?? entry?.scroll;
    const scroll: ScrollIntent = saved ? { kind: 'restore', ...saved } : { kind: 'top' };
    if (!held || held.stale || held.state.pendingAt !== undefined)
      return navigation.run(started, { href, kind: 'pop', scroll, key: screen.entry().key });
    navigation.cancel(started);
    // Another page: the one left does not ask again for what it prefetched.
    if (pathAndSearch(href) !== pathAndSearch(screen.getSnapshot().href)) prefetcher.leave();
    screen.commit({
      page: held,
      href,
      scroll,
      announce: true,
      phase: 'idle',
      transition,
    });
    started.settle({ status: 'committed', url: href, redirected: false });
    return started.outcome;
  }

  return {
    subscribe: screen.subscribe,
    getSnapshot: screen.getSnapshot,
    async navigate(href, { replace = false, scroll = true, viewTransition = false } = {}) {
      const target = new URL(href, effects.currentHref());
      const kind = replace ? 'replace' : 'push';
      const external = target.origin !== new URL(effects.currentHref()).origin;
      const nextUrl = external ? target.href : toLocal(target.href);
      const started = startNavigation(kind, nextUrl);
      if (viewTransition && !external) transitions.set(started, 'forward');
      const run = () =>
        external ? navigation.leave(started, target.href) : go(started, target, replace, scroll);
      if (!blockers.block({ kind, currentUrl: screen.getSnapshot().href, nextUrl }, started, run)) run();
      return started.outcome;
    },
    refresh() {
      prefetcher.clear();
      screen.markLayoutsChanged();
      return reload();
    },
    revalidate(paths) {
      paths.forEach(({ path, type }) => invalidate(path, type));
      return reload();
    },
    back: () => effects.go(-1),
    forward: () => effects.go(1),
    onPopState: async (entry) => pop(entry),
    saveScroll: screen.saveScroll,
    async prefetch(href, kind = 'auto', trigger = 'api') {
      if (!(effects.canPrefetch?.(trigger) ?? true)) return { status: 'skipped' };
      return prefetcher.prefetch(href, kind, trigger);
    },
    invalidate,
    onNavigation: (listener) => events.subscribe(listener),
    devtools() {
      const source = prefetcher.inspect();
      return { ...source, now: effects.now(), settings: { ...source.settings, routeScriptTimeoutMs } };
    },
    blockers,
  };
}
