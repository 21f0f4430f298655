/**
 * The router core: a plain store (`subscribe`, `getSnapshot`) with `navigate`, `refresh`,
 * `back`, `forward` and `prefetch`. No React and no browser globals here: history, fetch,
 * module loading, timers, the clock and the hard navigation are passed in
 * (`browser-effects.ts` in the browser, fakes in the tests).
 *
 * A navigation first asks the prefetch cache (SPEC C3): a fresh or reusable entry renders with
 * no request, except for what an `auto` entry left below a loading state, fetched behind it; a
 * stale entry gives its scripts and loading state and all data is fetched again; with nothing
 * usable a `temporary` entry is fetched at once. A newer navigation aborts the older one's
 * fetch and the older one never commits. Scripts slower than the timeout, and any failed
 * page-data fetch, end in a hard navigation — never twice in a row to one URL (SPEC N4, N5).
 * Back and forward restore the pages the router holds without a request, and never consult the
 * cache (N6, C7).
 */
import {
  HARD_NAVIGATION_GUARD_MS,
  HISTORY_ENTRIES_HELD,
  MAX_REDIRECTS,
  ROUTE_SCRIPT_TIMEOUT_MS,
} from '../shared/constants';
import { isIntercepted, type DataMode } from '../shared/page-data';
import { checkRedirectTarget } from '../shared/redirect-target';
import { keepUnmatchedSlots, spliceIntercepted } from './page-data-client';
import { createPageFetcher, FollowRedirect, TimeoutError } from './page-fetch';
import { createPrefetcher, settled, type CachedPage, type Prefetched } from './prefetcher';

export type {
  HistoryEntryState,
  Modules,
  NavigateOptions,
  Router,
  RouterEffects,
  RouterOptions,
  RouterSnapshot,
  ScrollIntent,
} from './router-types';
import type { Router, RouterOptions, RouterSnapshot, ScrollIntent } from './router-types';

type NavigationKind = 'push' | 'replace' | 'pop' | 'refresh';

/** Where a navigation's first render comes from: a cache entry and what its status allows. */
interface CacheSource {
  entry: Parameters<typeof settled>[0];
  stale: boolean;
  /** The entry is the intercepted variant (C4): refetching it must say where the user is. */
  intercepted: boolean;
}

export function createRouter(options: RouterOptions): Router {
  const { initial, effects, routeScriptTimeoutMs = ROUTE_SCRIPT_TIMEOUT_MS } = options;
  const buildId = initial.state.buildId;
  const { withTimeout, fetchPage } = createPageFetcher(effects, buildId, routeScriptTimeoutMs);
  const prefetcher = createPrefetcher({
    effects,
    buildId,
    currentPage: () => mainOf(snapshot),
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
  });
  const listeners = new Set<() => void>();
  /** Pages held for back and forward, by history key; oldest first. */
  const held = new Map<string, Prefetched & { scroll?: { x: number; y: number } }>();
  let currentKey = initial.history?.key ?? effects.newKey();
  let inFlight: AbortController | undefined;
  let sequence = 0;
  let snapshot: RouterSnapshot = {
    state: initial.state,
    modules: initial.modules,
    href: toLocal(effects.currentHref()),
    commit: 0,
    scroll: initial.history?.scroll ? { kind: 'restore', ...initial.history.scroll } : { kind: 'keep' },
    announce: false,
    pending: false,
  };
  effects.replaceState({ key: currentKey }, snapshot.href);
  hold(currentKey, { state: initial.state, modules: initial.modules });

  function hold(key: string, page: Prefetched): void {
    held.delete(key);
    held.set(key, page);
    if (held.size > HISTORY_ENTRIES_HELD) held.delete(held.keys().next().value!);
  }

  function publish(next: Partial<RouterSnapshot>): void {
    snapshot = { ...snapshot, ...next };
    listeners.forEach((listener) => listener());
  }

  function saveScroll(): void {
    const scroll = effects.readScroll();
    const page = held.get(currentKey);
    if (page) held.set(currentKey, { ...page, scroll });
    effects.replaceState({ key: currentKey, scroll }, snapshot.href);
  }

  /** Full page load, unless that would load the URL we just hard-loaded (a reload loop). */
  function hardNavigate(href: string, why: string, error?: unknown): void {
    const absolute = new URL(href, effects.currentHref()).href;
    const last = parseLast(effects.storage?.get() ?? null);
    if (last && last.href === absolute && effects.now() - last.at < HARD_NAVIGATION_GUARD_MS) {
      effects.reportError?.(`switchyard: not reloading ${absolute} again (${why})`, error);
      publish({ pending: false });
      return;
    }
    effects.storage?.set(JSON.stringify({ href: absolute, at: effects.now() }));
    effects.assign(absolute);
  }

  /** The page an entry gives when shown over `on`: an intercepted route goes into its slot. */
  function pageOver(on: Prefetched, cached: CachedPage, kind: NavigationKind): Prefetched {
    if (isIntercepted(cached)) {
      return {
        state: spliceIntercepted(on.state, cached),
        modules: new Map([...on.modules, ...cached.modules]),
      };
    }
    if (kind !== 'push' && kind !== 'replace') return cached;
    const state = keepUnmatchedSlots(on.state, cached.state);
    return state === cached.state ? cached : { state, modules: new Map([...on.modules, ...cached.modules]) };
  }

  /**
   * One navigation. `source` is where its first render comes from: a cache entry (fresh,
   * reusable or stale), or nothing (fetch a temporary entry).
   */
  async function load(
    href: string,
    kind: NavigationKind,
    scroll: ScrollIntent,
    key: string,
    source?: CacheSource,
    redirects = 0,
  ): Promise<void> {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    const id = ++sequence;
    const target = new URL(href, effects.currentHref());
    // A refresh under an intercepted route asks from the page under it, so it stays intercepted (I3).
    const from = kind === 'refresh' ? (snapshot.state.mainUrl ?? '') : mainOf(snapshot);
    const leaving: Prefetched = { state: snapshot.state, modules: snapshot.modules };
    publish({ pending: true });
    // Scripts start loading now, beside the data; their clock runs only while they load.
    const scripts = effects.preloadRoute ? withTimeout(effects.preloadRoute(target.pathname)) : undefined;
    scripts?.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
    try {
      let found: CachedPage;
      let rest: DataMode | undefined;
      // A prefetch that fails while we wait on it is no reason to leave the app: fetch below.
      const prefetched = source && (await settled(source.entry).catch(() => undefined));
      if (source && prefetched) {
        await scripts;
        const partial = !isIntercepted(prefetched) && prefetched.state.pendingAt !== undefined;
        if (source.stale && !partial) {
          // Stale, with no loading state to show: all data again, the scripts reused.
          found = await fetchPage(
            target,
            source.intercepted ? from : '',
            'full',
            controller.signal,
            undefined,
          );
        } else {
          found = prefetched;
          // Behind the loading state: what it stands for (fresh), or everything again (stale).
          if (partial) rest = source.stale ? 'full' : 'rest';
        }
      } else {
        const fetching = fetchPage(target, from, undefined, controller.signal, leaving.state);
        // Back, forward and refresh neither read the cache nor write to it (SPEC C7).
        if (kind === 'push' || kind === 'replace') prefetcher.addTemporary(target, fetching);
        [found] = await Promise.all([fetching, scripts]);
      }
      if (id !== sequence) return; // a newer navigation took over
      const first = pageOver(leaving, found, kind);
      // A route shown in a slot opens over the page: the page under it keeps its scroll.
      commit(target, kind, key, first, isIntercepted(found) ? { kind: 'keep' } : scroll);
      if (rest) {
        const full = await fetchPage(target, '', rest, controller.signal, first.state);
        if (id !== sequence) return;
        // The server never intercepts a `rest` request: this is a bug, not a user's problem.
        if (isIntercepted(full)) throw new Error('switchyard: the rest of a page came back intercepted');
        hold(currentKey, full);
        publish({
          state: full.state,
          modules: full.modules,
          commit: snapshot.commit + 1,
          scroll: { kind: 'keep' },
          announce: false,
        });
      }
      inFlight = undefined;
      publish({ pending: false });
    } catch (error) {
      if (id !== sequence) return; // cancelled by a newer navigation: never shown to anyone
      controller.abort();
      inFlight = undefined;
      if (error instanceof FollowRedirect && redirects < MAX_REDIRECTS) {
        // The redirect takes the place of the page asked for: a push stays a push, else replace.
        const next = kind === 'push' ? 'push' : 'replace';
        await followRedirect(error.location, next, scroll, target.href, redirects + 1);
        return;
      }
      hardNavigate(
        target.href,
        error instanceof TimeoutError ? 'route scripts timed out' : 'page data failed',
        error,
      );
    }
  }

  /**
   * Goes on to a redirect's target. Only paths on this origin are followed here; anything else
   * the server allowed is left to a full load of the page that redirected, which the server
   * answers with a real 307/308. A redirect to the page already shown does nothing.
   */
  async function followRedirect(
    location: string,
    kind: 'push' | 'replace',
    scroll: ScrollIntent,
    from: string,
    redirects: number,
  ): Promise<void> {
    const path = checkRedirectTarget(location);
    if (path === null) {
      hardNavigate(from, 'redirect to another origin');
      return;
    }
    const target = new URL(path, effects.currentHref());
    if (pathAndSearch(target.href) === pathAndSearch(effects.currentHref())) {
      publish({ pending: false });
      return;
    }
    await load(
      target.href,
      kind,
      scroll,
      kind === 'push' ? effects.newKey() : currentKey,
      undefined,
      redirects,
    );
  }

  function commit(
    target: URL,
    kind: NavigationKind,
    key: string,
    page: Prefetched,
    scroll: ScrollIntent,
  ): void {
    const local = toLocal(target.href);
    if (kind === 'push') {
      saveScroll();
      currentKey = key;
      effects.pushState({ key }, local);
    } else if (kind === 'replace') {
      currentKey = key;
      effects.replaceState({ key }, local);
    }
    hold(currentKey, page);
    publish({
      state: page.state,
      modules: page.modules,
      href: local,
      commit: snapshot.commit + 1,
      scroll,
      announce: kind !== 'refresh',
    });
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    async navigate(href, { replace = false, scroll = true } = {}) {
      const target = new URL(href, effects.currentHref());
      const current = new URL(effects.currentHref());
      if (target.origin !== current.origin) {
        effects.assign(target.href);
        return;
      }
      const intent: ScrollIntent = !scroll
        ? { kind: 'keep' }
        : target.hash
          ? { kind: 'hash', id: target.hash.slice(1) }
          : { kind: 'top' };
      // Only the hash changed: no data to fetch, the page stays, the anchor moves.
      if (target.hash && pathAndSearch(target.href) === pathAndSearch(current.href)) {
        const local = toLocal(target.href);
        if (replace) effects.replaceState({ key: currentKey }, local);
        else {
          saveScroll();
          currentKey = effects.newKey();
          effects.pushState({ key: currentKey }, local);
          hold(currentKey, { state: snapshot.state, modules: snapshot.modules });
        }
        publish({ href: local, commit: snapshot.commit + 1, scroll: intent, announce: false });
        return;
      }
      const found = prefetcher.lookup(target);
      let source: CacheSource | undefined;
      if (found && found.status !== 'expired') {
        prefetcher.use(found.entry);
        source = { entry: found.entry, stale: found.status === 'stale', intercepted: found.intercepted };
      }
      await load(target.href, replace ? 'replace' : 'push', intent, effects.newKey(), source);
    },
    refresh() {
      prefetcher.clear();
      return load(snapshot.href, 'refresh', { kind: 'keep' }, currentKey);
    },
    revalidate(paths) {
      paths.forEach(({ path, type }) => prefetcher.invalidate(path, type));
      return load(snapshot.href, 'refresh', { kind: 'keep' }, currentKey);
    },
    back: () => effects.go(-1),
    forward: () => effects.go(1),
    async onPopState(entry) {
      const page = entry ? held.get(entry.key) : undefined;
      const href = toLocal(effects.currentHref());
      // The page we leave keeps its scroll position for when the user comes back to it.
      const leaving = held.get(currentKey);
      if (leaving) held.set(currentKey, { ...leaving, scroll: effects.readScroll() });
      currentKey = entry?.key ?? effects.newKey();
      if (!entry) effects.replaceState({ key: currentKey }, href);
      const saved = page?.scroll ?? entry?.scroll;
      const scroll: ScrollIntent = saved ? { kind: 'restore', ...saved } : { kind: 'top' };
      if (page) {
        inFlight?.abort();
        sequence++;
        hold(currentKey, page);
        publish({
          state: page.state,
          modules: page.modules,
          href,
          commit: snapshot.commit + 1,
          scroll,
          announce: true,
          pending: false,
        });
        return;
      }
      await load(href, 'pop', scroll, currentKey);
    },
    saveScroll,
    prefetch(href, kind = 'auto') {
      if (effects.canPrefetch?.() ?? true) prefetcher.prefetch(href, kind);
    },
    invalidate: (path, scope) => void prefetcher.invalidate(path, scope),
    devtools: () => prefetcher.snapshot(),
  };
}

/** The page the user is on, for the server: under an intercepted route, the page under it. */
function mainOf(snapshot: RouterSnapshot): string {
  return snapshot.state.mainUrl ?? pathAndSearch(snapshot.href);
}

function toLocal(href: string): string {
  const url = new URL(href);
  return url.pathname + url.search + url.hash;
}

function pathAndSearch(href: string): string {
  const url = new URL(href, 'http://localhost');
  return url.pathname + url.search;
}

function parseLast(text: string | null): { href: string; at: number } | undefined {
  try {
    const value = text ? (JSON.parse(text) as { href?: unknown; at?: unknown }) : undefined;
    return typeof value?.href === 'string' && typeof value.at === 'number'
      ? { href: value.href, at: value.at }
      : undefined;
  } catch {
    return undefined;
  }
}
