/**
 * The router's contract: the store it is (`Router`), the snapshot React renders from, and the
 * effects a composition root hands it (`RouterEffects`: history, fetch, modules, timers, the
 * clock). The implementation is `router.ts`; the browser's effects are `browser-effects.ts`.
 */
import type { Revalidated } from '../shared/actions.js';
import type { InterceptedAnswer } from '../shared/page-data.js';
import type { PageState } from '../shared/page-state.js';
import type { EntryView } from '../shared/entry-view.js';
import type { CacheEntry, PrefetchCache } from '../shared/prefetch-cache.js';
import type { PrefetchBudget } from '../shared/prefetch-budget.js';
import type { PrefetchQueue } from '../shared/prefetch-queue.js';
import type { CachePolicy, EntryStatus } from '../shared/prefetch-status.js';
import type { BlockerGate } from './blocker-gate.js';
import type { NavigationEvents } from './navigation-events.js';
import type { RunTransition } from './view-transition.js';

/** A cache entry as the devtools show it. */
export interface DevtoolsEntry extends EntryView {
  /** Its data stops at a loading state (an `auto` prefetch of a route with one). */
  partial: boolean;
  /** Where its prefetch is in the queue: running, waiting (its clock already runs), or neither. */
  queued: 'running' | 'waiting' | null;
}

/**
 * The read-only view of the prefetch cache and queue that the devtools and tests read, made from
 * the router's `DevtoolsSource` by `devtoolsSnapshot` (client/devtools/snapshot.ts).
 */
export interface DevtoolsSnapshot {
  /** The router's clock now. */
  now: number;
  /** The settings in force: the cache's windows, the queue size and the time budgets. */
  settings: CachePolicy & { concurrency: number; routeScriptTimeoutMs: number; prefetchTimeoutMs: number };
  entries: DevtoolsEntry[];
  /** Keys running, and waiting in the order they will start (intent lane first). */
  queue: { running: string[]; waiting: string[] };
  /** This page view's prefetch budget: bytes spent, prefetches on their way, links deferred until there is room. */
  budget: { limitBytes: number; spentBytes: number; inFlight: number; deferred: string[] };
}

/**
 * What `router.devtools()` hands the devtools: the prefetch cache, queue and budget themselves,
 * read-only by type, and the settings they run by. The router builds no view of them: the
 * devtools' own code does, loaded only when asked for.
 */
export interface DevtoolsSource {
  /** The router's clock now. */
  now: number;
  settings: DevtoolsSnapshot['settings'];
  /** The cache's own entries, not copies: read-only here, as only the cache writes them. */
  cache: Pick<PrefetchCache<CachedPage>, 'status' | 'policyOf'> & {
    entries(): readonly Readonly<CacheEntry<CachedPage>>[];
    get(key: string): Readonly<CacheEntry<CachedPage>> | undefined;
  };
  queue: Pick<PrefetchQueue, 'running' | 'waiting'>;
  budget: Pick<PrefetchBudget, 'limit' | 'spent' | 'inFlight'>;
  /** Links in view the budget holds back, oldest first. */
  deferred: readonly { readonly href: string }[];
  /**
   * Whether a cached page stops at a loading state: the router's own rule, handed over so that
   * the devtools' chunk imports nothing from the router's (which would then carry an export
   * table for it).
   */
  isPartial(page: CachedPage): boolean;
}

/** Route modules by route file; the core never looks inside. */
export type Modules = ReadonlyMap<string, unknown>;

/** A page: its state (partial for an `auto` prefetch) and its route modules. */
export interface Page {
  state: PageState;
  modules: Modules;
}

/**
 * What a cache entry holds once settled: a page, or an intercepted route with its components,
 * to show over whatever page is at hand when it is used.
 */
export type CachedPage = Page | (InterceptedAnswer & { modules: Modules });

/**
 * Where a page was scrolled when the user left it: the window, and the containers marked
 * `data-scroll-restore="<name>"`, by name.
 */
export interface SavedScroll {
  x: number;
  y: number;
  elements?: Record<string, { top: number; left: number }>;
}

export type ScrollIntent =
  { kind: 'top' } | { kind: 'hash'; id: string } | ({ kind: 'restore' } & SavedScroll) | { kind: 'keep' };

export interface RouterSnapshot {
  state: PageState;
  modules: Modules;
  /** Pathname, search and hash shown in the address bar. */
  href: string;
  /** Counts commits; the view applies `scroll` once per commit. */
  commit: number;
  scroll: ScrollIntent;
  /** A new page was committed: the view moves focus to it and announces it. */
  announce: boolean;
  /** Whether a navigation is in flight. */
  pending: boolean;
}

export interface HistoryEntryState {
  key: string;
  scroll?: { x: number; y: number };
  /** Its position among the app's entries: a pop to a lower one goes back. */
  index?: number;
  /** The navigation that made this entry ran a view transition: back and forward to it do too. */
  viewTransition?: true;
}

export interface RouterEffects {
  /** The document's URL now (`location.href`). */
  currentHref(): string;
  pushState(state: HistoryEntryState, href: string): void;
  replaceState(state: HistoryEntryState, href: string): void;
  go(delta: number): void;
  fetch(url: string, init: { signal: AbortSignal; headers: Record<string, string> }): Promise<Response>;
  /**
   * The bytes the body of the last answer from `url` (as given to `fetch`) took on the wire,
   * compressed, as the browser measured them; `undefined` where it does not tell.
   */
  bodyBytesOnWire?(url: string): number | undefined;
  /** Imports the component modules of route files. */
  loadModules(files: readonly string[]): Promise<Modules>;
  /** Starts importing the scripts of the route a pathname matches, before its data is back. */
  preloadRoute?(pathname: string): Promise<unknown>;
  /**
   * Whether the route a pathname matches has a `loading.tsx` on its branch: a navigation with
   * nothing prefetched then asks for the page down to it first, to show it at once.
   */
  hasLoadingState?(pathname: string): boolean;
  /** Leaves the app for a full page load. */
  assign(href: string): void;
  readScroll(): SavedScroll;
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Where the last hard navigation is remembered across page loads (sessionStorage). */
  storage?: { get(): string | null; set(value: string): void };
  newKey(): string;
  reportError?(message: string, error?: unknown): void;
  /**
   * Renders a commit inside a view transition where the browser has them and the user has not
   * asked for reduced motion (view-transition.ts); without it, commits render as they come.
   */
  viewTransition?: RunTransition;
  /**
   * Asks the browser to prompt before the page unloads whenever `shouldBlock()` says so
   * (`beforeunload`); `null` removes the prompt.
   */
  guardUnload?(shouldBlock: (() => boolean) | null): void;
  /**
   * Whether a prefetch may start now: never in development or when the user saves data, and on
   * a slow connection only on intent or when the app asks.
   */
  canPrefetch?(trigger: PrefetchTrigger): boolean;
  /**
   * The interception a soft navigation from `fromPathname` to `pathname` meets, named by the
   * slot it shows in (`(feed)/@modal`), or `undefined`. The client knows the
   * route tree, so it can key the cache before it asks.
   */
  interceptionOf?(pathname: string, fromPathname: string): string | undefined;
  /**
   * The slots' rules (slot-rules.ts), in an app with slots: without them a page keeps nothing
   * of the slots of the page it replaces, and an intercepted answer cannot be shown.
   */
  slotRules?: SlotRules;
}

/** What a soft navigation does with slots (slot-rules.ts). */
export interface SlotRules {
  /**
   * A soft navigation's slots: what the slots of `next` that matched nothing keep of `on`;
   * `keepPages` false (a refresh, back, forward) keeps only what has no default to show.
   */
  keepUnmatched(on: PageState, next: PageState, keepPages?: boolean): PageState;
  /** The page `on` with an intercepted answer shown in its slot. */
  splice(on: PageState, answer: InterceptedAnswer): PageState;
}

export interface RouterOptions {
  initial: { state: PageState; modules: Modules; history: HistoryEntryState | null };
  effects: RouterEffects;
  /** Where navigations start and settle; the lazy router hands over its own, ids and listeners. */
  events?: NavigationEvents;
  /** The navigation blockers' gate; the lazy router hands over its own, which hooks may have filled. */
  blockers?: BlockerGate;
  routeScriptTimeoutMs?: number;
  policy?: CachePolicy;
  concurrency?: number;
}

export interface NavigateOptions {
  replace?: boolean;
  /** `false` keeps the scroll position. */
  scroll?: boolean;
  /**
   * Commit inside `document.startViewTransition` where the browser has it (never under
   * `prefers-reduced-motion: reduce`); back and forward across this entry do the same.
   */
  viewTransition?: boolean;
}

export type NavigationKind = 'push' | 'replace' | 'pop' | 'refresh';

/**
 * How a navigation ended. `committed`: its page (or its loading state) is on screen at `url`,
 * `redirected` if a loader sent it elsewhere on the way. `aborted`: it never committed, because a
 * newer navigation took its place (`superseded`), a blocker held it (`blocked`), or it failed and
 * a full load of the same URL was refused as a reload loop (`failed`). `hard`: the browser loads
 * `url` in full; settled just before it leaves.
 */
export type NavigationOutcome =
  | { status: 'committed'; url: string; redirected: boolean }
  | { status: 'aborted'; reason: 'superseded' | 'blocked' | 'failed' }
  | { status: 'hard'; url: string };

/**
 * How a prefetch ended: the status of its entry once settled (`fresh` for a new one), `failed` if
 * its request failed (the entry stays until it expires), or `skipped` if no entry came of it
 * (prefetching is off for now, another origin, or it was dropped before it ran).
 */
export interface PrefetchOutcome {
  status: EntryStatus | 'failed' | 'skipped';
}

/**
 * A phase of a navigation: the cache decision, waiting on a prefetch still on its way, a
 * page-data request (with the modules its answer names), the route's scripts, the commit.
 */
export type NavigationPhaseName = 'cache' | 'prefetch' | 'request' | 'scripts' | 'commit';

/** What the router did for a navigation, up to its end; times are the router's clock, in ms. */
export interface NavigationDetails {
  /** In the order they ended; a redirect's navigation has the phases of each attempt. */
  phases: { name: NavigationPhaseName; start: number; end: number }[];
  /** The prefetch cache entry's status at the click (`missing`: none); absent when not consulted. */
  entry?: EntryStatus | 'missing';
  /** The page committed behind a loading state, its data still on its way. */
  loadingState: boolean;
  /** Page-data requests made before the end (none when a prefetched entry was enough). */
  requests: number;
}

/**
 * A navigation starts once and ends with exactly one `commit`, `abort` or `hard` of its id.
 * The end carries `details` when someone listened at the start.
 */
export type NavigationEvent =
  | { type: 'start'; id: number; url: string; kind: NavigationKind }
  | { type: 'commit'; id: number; url: string; redirected: boolean; details?: NavigationDetails }
  | { type: 'abort'; id: number; reason: 'superseded' | 'blocked' | 'failed'; details?: NavigationDetails }
  | { type: 'hard'; id: number; url: string; details?: NavigationDetails };

export type NavigationListener = (event: NavigationEvent) => void;

/**
 * Why a prefetch is asked for: a link came into view (held to the page's byte budget, and off on
 * a slow connection), the pointer shows intent, or the app called `router.prefetch`.
 */
export type PrefetchTrigger = 'viewport' | 'intent' | 'api';

export interface Router {
  subscribe(listener: () => void): () => void;
  getSnapshot(): RouterSnapshot;
  navigate(href: string, options?: NavigateOptions): Promise<NavigationOutcome>;
  /** Fetches the current page's data again and clears the prefetch cache; client state stays. */
  refresh(): Promise<NavigationOutcome>;
  back(): void;
  forward(): void;
  /** The browser moved in its history (popstate). */
  onPopState(entry: HistoryEntryState | null): Promise<NavigationOutcome>;
  /** Writes the scroll position into the current history entry, e.g. before the page unloads. */
  saveScroll(): void;
  /**
   * Prefetches a URL: `auto` down to its first loading state, `full` all of it. `trigger` says
   * why (`<Link>` passes `viewport` or `intent`); the app's own calls count as intent.
   */
  prefetch(href: string, kind?: 'auto' | 'full', trigger?: PrefetchTrigger): Promise<PrefetchOutcome>;
  /** Drops the prefetch entries a path affects (a server action revalidated it). */
  invalidate(path: string, scope?: 'page' | 'layout'): void;
  /**
   * After a server action changed data: drops the entries of those paths only,
   * and fetches the current page's data again, keeping client state.
   */
  revalidate(paths: readonly Revalidated[]): Promise<NavigationOutcome>;
  /** Tells `listener` each navigation's start and end; returns the unsubscribe. */
  onNavigation(listener: NavigationListener): () => void;
  /**
   * The prefetch cache, queue and budget as they are, for the devtools; `devtoolsSnapshot`
   * (client/devtools/snapshot.ts) makes the snapshot they and the tests read of it.
   */
  devtools(): DevtoolsSource;
  /**
   * What every push, replace, back and forward asks first, and where `useBlocker` finds the
   * blockers' registry (`blockersOf`).
   */
  blockers: BlockerGate;
}
