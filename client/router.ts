/**
 * The router core: a plain store (`subscribe`, `getSnapshot`) with `navigate`, `refresh`,
 * `back`, `forward`. No React and no browser globals here: history, fetch, module loading,
 * timers, the clock and the hard navigation are passed in (see `browser-effects.ts`).
 *
 * A navigation fetches the target's page data (one request) and its route scripts (dynamic
 * imports, in parallel), then commits. A newer navigation aborts the older one's fetch and the
 * older one never commits. Scripts that take longer than the timeout, and any failed page-data
 * fetch, end in a hard navigation to the target — never twice in a row to one URL (SPEC N4).
 * Back and forward restore pages the router still holds without a request (N6).
 */
import { HARD_NAVIGATION_GUARD_MS, HISTORY_ENTRIES_HELD, ROUTE_SCRIPT_TIMEOUT_MS } from '../shared/constants';
import { PAGE_DATA_TYPE, pageDataUrl, type PageDataResponse } from '../shared/page-data';
import type { PageState } from '../shared/page-state';

/** Components by route file; the core never looks inside. */
export type Modules = ReadonlyMap<string, unknown>;

export type ScrollIntent =
  | { kind: 'top' }
  | { kind: 'hash'; id: string }
  | { kind: 'restore'; x: number; y: number }
  | { kind: 'keep' };

export interface RouterSnapshot {
  state: PageState;
  modules: Modules;
  /** Pathname, search and hash shown in the address bar. */
  href: string;
  /** Counts commits; the view applies `scroll` and moves focus once per commit. */
  commit: number;
  scroll: ScrollIntent;
  /** Whether a navigation is in flight. */
  pending: boolean;
}

export interface HistoryEntryState {
  key: string;
  scroll?: { x: number; y: number };
}

export interface RouterEffects {
  /** The document's URL now (`location.href`). */
  currentHref(): string;
  pushState(state: HistoryEntryState, href: string): void;
  replaceState(state: HistoryEntryState, href: string): void;
  go(delta: number): void;
  fetch(url: string, init: { signal: AbortSignal; headers: Record<string, string> }): Promise<Response>;
  /** Imports the component modules of route files. */
  loadModules(files: readonly string[]): Promise<Modules>;
  /** Starts importing the scripts of the route a pathname matches, before its data is back. */
  preloadRoute?(pathname: string): Promise<unknown>;
  /** Leaves the app for a full page load. */
  assign(href: string): void;
  readScroll(): { x: number; y: number };
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Where the last hard navigation is remembered across page loads (sessionStorage). */
  storage?: { get(): string | null; set(value: string): void };
  newKey(): string;
  reportError?(message: string, error?: unknown): void;
}

export interface RouterOptions {
  initial: { state: PageState; modules: Modules; history: HistoryEntryState | null };
  effects: RouterEffects;
  routeScriptTimeoutMs?: number;
}

export interface NavigateOptions {
  replace?: boolean;
  /** `false` keeps the scroll position. */
  scroll?: boolean;
}

export interface Router {
  subscribe(listener: () => void): () => void;
  getSnapshot(): RouterSnapshot;
  navigate(href: string, options?: NavigateOptions): Promise<void>;
  refresh(): Promise<void>;
  back(): void;
  forward(): void;
  /** The browser moved in its history (popstate). */
  onPopState(entry: HistoryEntryState | null): Promise<void>;
  /** Writes the scroll position into the current history entry, e.g. before the page unloads. */
  saveScroll(): void;
  /** Starts loading a route's scripts ahead of a navigation. */
  prefetch(href: string): void;
}

type NavigationKind = 'push' | 'replace' | 'pop' | 'refresh';

class TimeoutError extends Error {}

export function createRouter({
  initial,
  effects,
  routeScriptTimeoutMs = ROUTE_SCRIPT_TIMEOUT_MS,
}: RouterOptions): Router {
  const listeners = new Set<() => void>();
  /** Pages held for back and forward, by history key; oldest first. */
  const held = new Map<string, { state: PageState; modules: Modules; scroll?: { x: number; y: number } }>();
  let currentKey = initial.history?.key ?? effects.newKey();
  let inFlight: AbortController | undefined;
  let sequence = 0;
  let snapshot: RouterSnapshot = {
    state: initial.state,
    modules: initial.modules,
    href: toLocal(effects.currentHref()),
    commit: 0,
    scroll: initial.history?.scroll ? { kind: 'restore', ...initial.history.scroll } : { kind: 'keep' },
    pending: false,
  };
  effects.replaceState({ key: currentKey }, snapshot.href);
  hold(currentKey, { state: initial.state, modules: initial.modules });

  function hold(key: string, page: { state: PageState; modules: Modules }): void {
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

  function withTimeout<T>(promise: Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = effects.setTimeout(
        () => reject(new TimeoutError('route scripts timed out')),
        routeScriptTimeoutMs,
      );
      promise.then(
        (value) => {
          effects.clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          effects.clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  async function load(href: string, kind: NavigationKind, scroll: ScrollIntent, key: string): Promise<void> {
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    const id = ++sequence;
    const target = new URL(href, effects.currentHref());
    publish({ pending: true });
    // Scripts start loading now, beside the data; their clock runs only while they load.
    const scripts = effects.preloadRoute ? withTimeout(effects.preloadRoute(target.pathname)) : undefined;
    try {
      const from = kind === 'refresh' ? '' : pathAndSearch(snapshot.href);
      const fetching = effects
        .fetch(pageDataUrl(target.pathname + target.search, from), {
          signal: controller.signal,
          headers: { accept: PAGE_DATA_TYPE },
        })
        .then(readPageData);
      // Whichever fails first (the data, or scripts past their timeout) ends the navigation.
      const [data] = await Promise.all([fetching, scripts]);
      if (data.buildId !== snapshot.state.buildId) throw new Error('a new build was deployed');
      const state = mergeState(kind === 'refresh' ? undefined : snapshot.state, data);
      const modules = await withTimeout(effects.loadModules(filesOf(state)));
      if (id !== sequence) return; // a newer navigation took over
      inFlight = undefined;
      const local = toLocal(target.href);
      if (kind === 'push') {
        saveScroll();
        currentKey = key;
        effects.pushState({ key }, local);
      } else if (kind === 'replace') {
        currentKey = key;
        effects.replaceState({ key }, local);
      }
      hold(currentKey, { state, modules });
      publish({ state, modules, href: local, commit: snapshot.commit + 1, scroll, pending: false });
    } catch (error) {
      if (id !== sequence) return; // cancelled by a newer navigation: never shown to anyone
      controller.abort();
      inFlight = undefined;
      hardNavigate(
        target.href,
        error instanceof TimeoutError ? 'route scripts timed out' : 'page data failed',
        error,
      );
    }
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
      // Only the hash changed: no data to fetch, the page stays, the browser's anchor moves.
      if (target.hash && pathAndSearch(target.href) === pathAndSearch(current.href)) {
        const local = toLocal(target.href);
        if (replace) effects.replaceState({ key: currentKey }, local);
        else {
          saveScroll();
          currentKey = effects.newKey();
          effects.pushState({ key: currentKey }, local);
          hold(currentKey, { state: snapshot.state, modules: snapshot.modules });
        }
        publish({ href: local, commit: snapshot.commit + 1, scroll: intent });
        return;
      }
      await load(target.href, replace ? 'replace' : 'push', intent, effects.newKey());
    },
    refresh: () => load(snapshot.href, 'refresh', { kind: 'keep' }, currentKey),
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
          pending: false,
        });
        return;
      }
      await load(href, 'pop', scroll, currentKey);
    },
    saveScroll,
    prefetch(href) {
      const target = new URL(href, effects.currentHref());
      if (target.origin !== new URL(effects.currentHref()).origin) return;
      effects.preloadRoute?.(target.pathname).catch(() => {}); // a failed prefetch costs nothing
    },
  };
}

async function readPageData(response: Response): Promise<PageDataResponse> {
  if (response.status >= 500) throw new Error(`page data answered ${response.status}`);
  const type = response.headers.get('content-type');
  if (!type?.startsWith(PAGE_DATA_TYPE)) throw new Error(`page data came as ${type ?? 'nothing'}`);
  return (await response.json()) as PageDataResponse;
}

/** Keeps the layout data the server left out because this client already holds it. */
function mergeState(current: PageState | undefined, data: PageDataResponse): PageState {
  const { status: _status, ...state } = data;
  state.segments = state.segments.map((segment, i) => {
    if (!segment.reuseLayoutData) return segment;
    const mine = current?.segments[i];
    if (!mine || mine.dir !== segment.dir) throw new Error(`no layout data held for ${segment.dir}`);
    const { reuseLayoutData: _reuse, ...rest } = segment;
    return mine.layoutData === undefined ? rest : { ...rest, layoutData: mine.layoutData };
  });
  return state;
}

export function filesOf(state: PageState): string[] {
  const files = state.segments.flatMap((s) => Object.values(s.files));
  if (state.notFound) files.push(state.notFound);
  return files;
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
