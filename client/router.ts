/**
 * The router core: a plain store (`subscribe`, `getSnapshot`) with `navigate`, `refresh`,
 * `back`, `forward` and `prefetch`. No React and no browser globals here: history, fetch,
 * module loading, timers, the clock and the hard navigation are passed in
 * (`browser-effects.ts` in the browser, fakes in the tests).
 *
 * A navigation goes through five phases, each a function below (docs/navigation.md draws them):
 *   1. choose its source: the prefetch cache's entry, or a fetch of its own (`navigate`, with the
 *      rule in shared/cache-decision.ts);
 *   2. wait for its first render (`fromEntry`, `fetchOwn`): the route-script budget gives the
 *      scripts 3800 ms from when the page data is in; a prefetch still on its way, which the
 *      navigation did not ask for, is waited for within that budget from the click;
 *   3. commit it (`commit`): history, the held page, one snapshot with its scroll and announcement;
 *   4. fill in what a loading state stands for (`fillIn`), behind that loading state;
 *   5. fall back (`fallBack`) to a full page load when the budget runs out or page data fails,
 *      never twice in a row to one URL.
 * A newer navigation aborts the older one, which never commits. Back and forward restore the
 * pages the router holds without a request, and never consult the cache.
 *
 * Every navigation, whatever starts it, is started once in `events` (navigation-events.ts) and
 * settled once, where it commits, is superseded (`cancel`) or leaves the app (`fallBack`): the
 * promise a caller gets resolves to that outcome.
 */
import { chooseSource, planFromEntry } from '../shared/cache-decision.js';
import { HISTORY_ENTRIES_HELD, MAX_REDIRECTS, ROUTE_SCRIPT_TIMEOUT_MS } from '../shared/constants.js';
import { isIntercepted, type DataMode } from '../shared/page-data.js';
import type { EntryStatus } from '../shared/prefetch-status.js';
import { checkRedirectTarget } from '../shared/redirect-target.js';
import { createBlockers, createHistoryGate } from './blockers.js';
import { startDeadline, TimeoutError, type Deadline } from './deadline.js';
import { hardNavigate } from './hard-navigation.js';
import { firstSnapshot, toLocal } from './lazy-router.js';
import { createHeldPages } from './held-pages.js';
import { timeNavigation, type TimedNavigation } from './navigation-details.js';
import { createNavigationEvents, SUPERSEDED } from './navigation-events.js';
import { pageOver, spliceIntercepted } from './page-data-client.js';
import { createPageFetcher, FollowRedirect, LoadDocument, SCRIPTS_TIMED_OUT } from './page-fetch.js';
import { createPrefetcher, settled, type Found } from './prefetcher.js';
import { placeOf, popTransition, type NavigationDirection } from './view-transition.js';

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
import type {
  CachedPage,
  NavigationKind,
  NavigationOutcome,
  Prefetched,
  Router,
  RouterOptions,
  RouterSnapshot,
  ScrollIntent,
} from './router-types.js';

/** Where a navigation's first render comes from: a cache entry and its status. */
interface CacheSource {
  entry: Found['entry'];
  status: Exclude<EntryStatus, 'expired'>;
  /** The entry is the intercepted variant: refetching it must say where the user is. */
  intercepted: boolean;
}

/**
 * One attempt in flight: the navigation it serves (one across its redirects, each an attempt of
 * its own), what aborts its fetches, and its time budget.
 */
interface Navigation {
  started: TimedNavigation;
  controller: AbortController;
  /** Starts at the click; bounds the wait on a prefetch still on its way, and on its scripts. */
  budget: Deadline;
}

/** A first render, and what to fetch behind its loading state afterwards. */
interface FirstRender {
  page: CachedPage;
  after: DataMode | undefined;
}

export function createRouter(options: RouterOptions): Router {
  const { initial, routeScriptTimeoutMs = ROUTE_SCRIPT_TIMEOUT_MS } = options;
  const blockers = options.blockers ?? createBlockers(options.effects);
  // Push, replace, back and forward go through the blockers; a full load leaves without a prompt.
  const gate = createHistoryGate<TimedNavigation>(options.effects, blockers);
  const { effects } = gate;
  const buildId = initial.state.buildId;
  const { fetchPage, loadWithin } = createPageFetcher(effects, buildId, routeScriptTimeoutMs);
  /**
   * Whether the layout data of the page on screen may be out of date: from a refresh or a
   * layout's revalidation until the next page from the server commits. Meanwhile navigations
   * and prefetches ask for every layout's data instead of reusing it.
   */
  let layoutsOutOfDate = false;
  const prefetcher = createPrefetcher({
    effects,
    buildId,
    currentPage: () => mainOf(snapshot),
    currentState: () => (layoutsOutOfDate ? undefined : snapshot.state),
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
  });
  const listeners = new Set<() => void>();
  const events = options.events ?? createNavigationEvents(effects.reportError);
  /** Starts a navigation, recording what it does while someone listens (navigation-details.ts). */
  const startNavigation = (kind: NavigationKind, url: string) =>
    timeNavigation(events.start(kind, url), events.listening(), effects.now);
  const held = createHeldPages(HISTORY_ENTRIES_HELD);
  let currentKey = initial.history?.key ?? effects.newKey();
  let place = placeOf(initial.history);
  /** The navigations that commit inside a view transition, and its direction. */
  const transitions = new WeakMap<TimedNavigation, NavigationDirection>();
  let inFlight: Navigation | undefined;
  let snapshot: RouterSnapshot = firstSnapshot(initial, effects.currentHref());
  effects.replaceState({ key: currentKey, ...place }, snapshot.href);
  held.hold(currentKey, { state: initial.state, modules: initial.modules });

  /**
   * The snapshot changes at once; with a `transition`, listeners (React) hear of it inside the
   * view transition, so that the browser captures the page before and after.
   */
  function publish(next: Partial<RouterSnapshot>, transition?: NavigationDirection): void {
    snapshot = { ...snapshot, ...next };
    const notify = () => listeners.forEach((listener) => listener());
    if (transition && effects.viewTransition) effects.viewTransition(transition, notify);
    else notify();
  }

  function saveScroll(): void {
    const scroll = effects.readScroll();
    held.keepScroll(currentKey, scroll);
    effects.replaceState({ key: currentKey, ...place, scroll }, snapshot.href);
  }

  /**
   * Aborts the attempt in flight, if any; it will never commit. Its navigation is superseded,
   * unless `next` is that navigation going on (to a redirect's target).
   */
  function cancel(next?: TimedNavigation): void {
    if (inFlight && inFlight.started !== next) inFlight.started.settle(SUPERSEDED);
    inFlight?.controller.abort();
    inFlight?.budget.clear();
    inFlight = undefined;
  }

  function begin(started: TimedNavigation): Navigation {
    cancel(started);
    const budget = startDeadline(effects, routeScriptTimeoutMs, SCRIPTS_TIMED_OUT);
    inFlight = { started, controller: new AbortController(), budget };
    return inFlight;
  }

  const isCurrent = (nav: Navigation) => nav === inFlight;

  /**
   * Phase 5: a full page load of the target (hard-navigation.ts guards against a loop). Refused
   * as a loop, the navigation ends `failed` and the page stays.
   */
  function fallBack(started: TimedNavigation, href: string, why: string, error?: unknown): void {
    publish({ pending: false });
    const leaving = (url: string) => started.settle({ status: 'hard', url });
    if (!hardNavigate(effects, href, { why, error, leaving }))
      started.settle({ status: 'aborted', reason: 'failed' });
  }

  /** Leaves the app for a URL the router does not render (another origin, a route handler). */
  function leave(started: TimedNavigation, url: string): void {
    started.settle({ status: 'hard', url });
    effects.assign(url);
  }

  /**
   * One navigation. `source` is where its first render comes from: a cache entry (fresh,
   * reusable or stale), or nothing (a fetch of its own).
   */
  async function load(
    started: TimedNavigation,
    href: string,
    kind: NavigationKind,
    scroll: ScrollIntent,
    key: string,
    source?: CacheSource,
    redirects = 0,
  ): Promise<void> {
    const nav = begin(started);
    const target = new URL(href, effects.currentHref());
    // A refresh under an intercepted route asks from the page under it, so it stays intercepted.
    const from = kind === 'refresh' ? (snapshot.state.mainUrl ?? '') : mainOf(snapshot);
    const leaving: Prefetched = { state: snapshot.state, modules: snapshot.modules };
    publish({ pending: true });
    // Scripts start loading now, beside the data.
    const scripts = started.time('scripts', () => Promise.resolve(effects.preloadRoute?.(target.pathname)));
    scripts.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
    try {
      const first =
        (source && (await fromEntry(nav, target, source, from, scripts))) ??
        (await fetchOwn(nav, target, kind, from, scripts, leaving));
      if (!isCurrent(nav)) return;
      const page = pageOver(leaving, first.page, kind);
      started.note({ loadingState: first.after !== undefined });
      // A route shown in a slot opens over the page: the page under it keeps its scroll.
      const kept: ScrollIntent = isIntercepted(first.page) ? { kind: 'keep' } : scroll;
      started.time('commit', () => commit(target, kind, key, page, kept, transitions.get(started)));
      started.settle({ status: 'committed', url: snapshot.href, redirected: redirects > 0 });
      // A page from the server (or from an entry made since) holds layout data to trust again;
      // a route shown in a slot is over the page that was on screen, whose data is not new.
      if (!isIntercepted(first.page)) layoutsOutOfDate = false;
      if (first.after) await fillIn(nav, target, first.after, page);
    } catch (error) {
      if (!isCurrent(nav)) return; // cancelled by a newer navigation: never shown to anyone
      nav.controller.abort();
      if (error instanceof FollowRedirect && redirects < MAX_REDIRECTS) {
        // The redirect takes the place of the page asked for: a push stays a push, else replace.
        const next = kind === 'push' ? 'push' : 'replace';
        await followRedirect(started, error.location, next, scroll, target.href, redirects + 1);
        return;
      }
      if (error instanceof LoadDocument) {
        // A route handler answers this URL: the browser loads it, as it would a plain link.
        publish({ pending: false });
        leave(started, error.url);
        return;
      }
      const why = error instanceof TimeoutError ? error.message : 'page data failed';
      fallBack(started, target.href, why, error);
    } finally {
      nav.budget.clear();
      if (inFlight === nav) inFlight = undefined;
    }
  }

  /**
   * Phase 2 from a cache entry. Waiting for a prefetch still on its way counts against the
   * budget: a hung one ends in a hard navigation. One that fails meanwhile gives `undefined`,
   * and the navigation fetches for itself.
   */
  async function fromEntry(
    nav: Navigation,
    target: URL,
    source: CacheSource,
    from: string,
    scripts: Promise<unknown>,
  ): Promise<FirstRender | undefined> {
    const waiting = nav.budget.race(settled(source.entry).catch(() => undefined));
    const prefetched = await (source.entry.result.state === 'pending'
      ? nav.started.time('prefetch', () => waiting)
      : waiting);
    if (!prefetched) return undefined;
    await nav.budget.race(scripts);
    const partial = !isIntercepted(prefetched) && prefetched.state.pendingAt !== undefined;
    const plan = planFromEntry(source.status, partial);
    if (plan.first === 'entry') return { page: prefetched, after: plan.after };
    // Nothing held is merged into it: named only for the interception, it is asked for whole.
    const page = await nav.started.time('request', () =>
      fetchPage(target, source.intercepted ? from : '', 'full', nav.controller.signal, undefined, true),
    );
    return { page, after: undefined };
  }

  /**
   * Phase 2 with nothing usable in the cache. A push or replace to a route with a loading state
   * asks only for what renders outside it (`auto`), so that state shows after one round trip,
   * and the rest follows behind it — as after an `auto` prefetch. What it fetches is kept as a
   * `temporary` entry. Back, forward and refresh neither read the cache nor write to it, and
   * fetch the whole page.
   */
  async function fetchOwn(
    nav: Navigation,
    target: URL,
    kind: NavigationKind,
    from: string,
    scripts: Promise<unknown>,
    leaving: Prefetched,
  ): Promise<FirstRender> {
    const pushed = kind === 'push' || kind === 'replace';
    const under = kind === 'refresh' ? snapshot.state.mainUrl : undefined;
    const mode = pushed && effects.hasLoadingState?.(target.pathname) ? 'auto' : undefined;
    const fetching = nav.started.time('request', () =>
      fetchPage(target, from, mode, nav.controller.signal, leaving.state, layoutsOutOfDate),
    );
    if (pushed) prefetcher.addTemporary(target, fetching);
    // Under an intercepted route, a refresh refreshes the page under it too.
    const below = under
      ? nav.started.time('request', () =>
          fetchPage(
            new URL(under, target),
            under,
            undefined,
            nav.controller.signal,
            leaving.state,
            layoutsOutOfDate,
          ),
        )
      : undefined;
    const [page, main] = await Promise.all([fetching, below]);
    // The data is in: the scripts' budget starts now. A slow server is not theirs to pay for.
    await loadWithin(scripts);
    if (main && !isIntercepted(main)) {
      held.refresh(under!, main);
      if (isIntercepted(page))
        return {
          page: {
            state: spliceIntercepted(main.state, page),
            modules: new Map([...main.modules, ...page.modules]),
          },
          after: undefined,
        };
    }
    const partial = !isIntercepted(page) && page.state.pendingAt !== undefined;
    return { page, after: partial ? 'rest' : undefined };
  }

  /** Phase 4: the data a loading state stands for, fetched and committed behind it. */
  async function fillIn(nav: Navigation, target: URL, mode: DataMode, shown: Prefetched): Promise<void> {
    const full = await fetchPage(target, '', mode, nav.controller.signal, shown.state);
    if (!isCurrent(nav)) return;
    // The server never intercepts a `rest` request: this is a bug, not a user's problem.
    if (isIntercepted(full)) throw new Error('switchyard: the rest of a page came back intercepted');
    held.hold(currentKey, full);
    publish({
      state: full.state,
      modules: full.modules,
      commit: snapshot.commit + 1,
      scroll: { kind: 'keep' },
      announce: false,
    });
  }

  /**
   * Goes on to a redirect's target. Only paths on this origin are followed here; anything else
   * the server allowed is left to a full load of the page that redirected, which the server
   * answers with a real 307/308. A redirect to the page already shown does nothing.
   */
  async function followRedirect(
    started: TimedNavigation,
    location: string,
    kind: 'push' | 'replace',
    scroll: ScrollIntent,
    from: string,
    redirects: number,
  ): Promise<void> {
    const path = checkRedirectTarget(location);
    if (path === null) {
      fallBack(started, from, 'redirect to another origin');
      return;
    }
    const target = new URL(path, effects.currentHref());
    if (pathAndSearch(target.href) === pathAndSearch(effects.currentHref())) {
      // The user is where the redirect leads: the navigation ends there, with nothing to commit.
      publish({ pending: false });
      started.settle({ status: 'committed', url: snapshot.href, redirected: true });
      return;
    }
    await load(
      started,
      target.href,
      kind,
      scroll,
      kind === 'push' ? effects.newKey() : currentKey,
      undefined,
      redirects,
    );
  }

  /**
   * Phase 3: the one snapshot of a new page; the view applies its scroll and focus once. A push
   * or replace with a `transition` marks its entry, so that back and forward across it run one.
   */
  function commit(
    target: URL,
    kind: NavigationKind,
    key: string,
    page: Prefetched,
    scroll: ScrollIntent,
    transition?: NavigationDirection,
  ): void {
    const local = toLocal(target.href);
    // A new page view: prefetches the old page started while this navigation was on its way
    // (a link scrolled into view, a hover) stop too, and the budget starts again.
    if (kind !== 'refresh') prefetcher.leave();
    const entered = transition ? { viewTransition: true as const } : {};
    if (kind === 'push') {
      saveScroll();
      currentKey = key;
      place = { index: place.index + 1, ...entered };
      effects.pushState({ key, ...place }, local);
    } else if (kind === 'replace') {
      currentKey = key;
      place = { index: place.index, ...entered };
      effects.replaceState({ key, ...place }, local);
    }
    held.hold(currentKey, page);
    publish(
      {
        state: page.state,
        modules: page.modules,
        href: local,
        commit: snapshot.commit + 1,
        scroll,
        announce: kind !== 'refresh',
        pending: false,
      },
      transition,
    );
  }

  /**
   * A path's data changed (a server action said so): its cache entries go, pages held for back
   * and forward that show it are fetched again on return, and a changed layout's data on screen
   * is out of date until a page from the server commits. An action that redirects only
   * invalidates before it navigates; `revalidate` also refreshes the page on screen.
   */
  function invalidate(path: string, scope: 'page' | 'layout' = 'page'): void {
    prefetcher.invalidate(path, scope);
    held.markStale([{ path, type: scope }]);
    if (scope === 'layout') layoutsOutOfDate = true;
  }

  /** The page on screen again from the server, client state kept: a navigation of kind `refresh`. */
  function reload(): Promise<NavigationOutcome> {
    const started = startNavigation('refresh', snapshot.href);
    return settle(started, load(started, snapshot.href, 'refresh', { kind: 'keep' }, currentKey));
  }

  /**
   * The outcome of a navigation, which comes at its commit: what a loading state stands for is
   * still on its way then. A bug that escapes `load` is reported, and ends the navigation.
   */
  function settle(started: TimedNavigation, attempt: Promise<void>): Promise<NavigationOutcome> {
    attempt.catch((error: unknown) => {
      effects.reportError?.('switchyard: a navigation failed', error);
      started.settle({ status: 'aborted', reason: 'failed' });
    });
    return started.outcome;
  }

  /** A push or replace within the app, once no blocker holds it. */
  function go(started: TimedNavigation, target: URL, replace: boolean, scroll: boolean): void {
    const current = new URL(effects.currentHref());
    const kind = replace ? 'replace' : 'push';
    const intent: ScrollIntent = !scroll
      ? { kind: 'keep' }
      : target.hash
        ? { kind: 'hash', id: target.hash.slice(1) }
        : { kind: 'top' };
    // Only the hash changed: no data to fetch, the page stays, the anchor moves.
    if (target.hash && pathAndSearch(target.href) === pathAndSearch(current.href)) {
      const local = toLocal(target.href);
      if (replace) effects.replaceState({ key: currentKey, ...place }, local);
      else {
        saveScroll();
        currentKey = effects.newKey();
        place = { index: place.index + 1 };
        effects.pushState({ key: currentKey, ...place }, local);
        held.hold(currentKey, { state: snapshot.state, modules: snapshot.modules });
      }
      publish({ href: local, commit: snapshot.commit + 1, scroll: intent, announce: false });
      started.settle({ status: 'committed', url: local, redirected: false });
      return;
    }
    // Phase 1: the cache decision.
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
    void settle(started, load(started, target.href, kind, intent, effects.newKey(), source));
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    async navigate(href, { replace = false, scroll = true, viewTransition = false } = {}) {
      const target = new URL(href, effects.currentHref());
      const kind = replace ? 'replace' : 'push';
      const external = target.origin !== new URL(effects.currentHref()).origin;
      const nextUrl = external ? target.href : toLocal(target.href);
      const started = startNavigation(kind, nextUrl);
      if (viewTransition && !external) transitions.set(started, 'forward');
      const run = () => (external ? leave(started, target.href) : go(started, target, replace, scroll));
      if (!gate.hold({ kind, currentUrl: snapshot.href, nextUrl }, started, run)) run();
      return started.outcome;
    },
    refresh() {
      prefetcher.clear();
      layoutsOutOfDate = true;
      return reload();
    },
    revalidate(paths) {
      paths.forEach(({ path, type }) => invalidate(path, type));
      return reload();
    },
    back: () => effects.go(-1),
    forward: () => effects.go(1),
    async onPopState(entry) {
      const page = entry ? held.get(entry.key) : undefined;
      const href = toLocal(effects.currentHref());
      const navigation = { kind: 'pop', currentUrl: snapshot.href, nextUrl: href } as const;
      const from = { key: currentKey, index: place.index };
      const pass = gate.pop(entry, from, navigation, () => startNavigation('pop', href));
      if (!pass.started) return pass.outcome;
      const { started } = pass;
      // The page we leave keeps its scroll position for when the user comes back to it.
      held.keepScroll(currentKey, effects.readScroll());
      currentKey = entry?.key ?? effects.newKey();
      const transition = entry?.index === undefined ? undefined : popTransition(place, placeOf(entry));
      if (transition) transitions.set(started, transition);
      // Without our state it is an entry a `#fragment` link added after the one we were on.
      place = entry ? placeOf(entry) : { index: place.index + 1 };
      if (!entry) effects.replaceState({ key: currentKey, ...place }, href);
      void started.outcome.then(prefetcher.navigating());
      const saved = page?.scroll ?? entry?.scroll;
      const scroll: ScrollIntent = saved ? { kind: 'restore', ...saved } : { kind: 'top' };
      if (page && !page.stale) {
        cancel(started);
        held.hold(currentKey, page);
        publish(
          {
            state: page.state,
            modules: page.modules,
            href,
            commit: snapshot.commit + 1,
            scroll,
            announce: true,
            pending: false,
          },
          transition,
        );
        started.settle({ status: 'committed', url: href, redirected: false });
        return started.outcome;
      }
      return settle(started, load(started, href, 'pop', scroll, currentKey));
    },
    saveScroll,
    async prefetch(href, kind = 'auto', trigger = 'api') {
      if (!(effects.canPrefetch?.(trigger) ?? true)) return { status: 'skipped' };
      return prefetcher.prefetch(href, kind, trigger);
    },
    invalidate,
    onNavigation: (listener) => events.subscribe(listener),
    devtools() {
      const snapshot = prefetcher.snapshot();
      return { ...snapshot, settings: { ...snapshot.settings, routeScriptTimeoutMs } };
    },
    blockers,
  };
}

/** The page the user is on, for the server: under an intercepted route, the page under it. */
function mainOf(snapshot: RouterSnapshot): string {
  return snapshot.state.mainUrl ?? pathAndSearch(snapshot.href);
}

function pathAndSearch(href: string): string {
  const url = new URL(href, 'http://localhost');
  return url.pathname + url.search;
}
