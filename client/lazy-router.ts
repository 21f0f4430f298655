/**
 * The router as a first paint needs it: the page the server rendered, as the snapshot React
 * hydrates from, while the code that navigates and prefetches (`start-router.ts`) loads in a
 * chunk of its own once the page is up. A call that needs that code starts its load if it has
 * not started and waits for it; when it cannot load (or a navigation's budget runs out first),
 * a navigation becomes a full page load and a prefetch nothing — a click is never lost.
 */
import type { PageState } from '../shared/page-state.js';
import { createBlockerGate, type BlockerGate } from './blocker-gate.js';
import { createNavigationEvents, type NavigationEvents } from './navigation-events.js';
import type {
  HistoryEntryState,
  Modules,
  NavigateOptions,
  NavigationKind,
  NavigationOutcome,
  Router,
  RouterEffects,
  RouterSnapshot,
} from './router-types.js';

export interface LazyRouterOptions {
  initial: { state: PageState; modules: Modules; history: HistoryEntryState | null };
  /**
   * Loads the router's code and creates the router over `events` and `blockers`, so that
   * navigations keep one numbering and one set of listeners, and blockers registered before it
   * loaded hold; called once, by the first call that needs it.
   */
  load(events: NavigationEvents, blockers: BlockerGate): Promise<Router>;
  effects: Pick<
    RouterEffects,
    'currentHref' | 'assign' | 'go' | 'setTimeout' | 'clearTimeout' | 'guardUnload'
  > & {
    /** Loads the document's URL again (`location.reload()`): where `assign` may only scroll. */
    reload(): void;
  };
  /** How long a navigation waits for the router's code before it loads the page in full. */
  budgetMs: number;
  reportError?: (message: string, error: unknown) => void;
}

export interface LazyRouter extends Router {
  /** Starts loading the router's code (once); resolves when it is running. */
  ready(): Promise<Router>;
}

/** The snapshot of the page the server rendered, before any navigation. */
export function firstSnapshot(initial: LazyRouterOptions['initial'], href: string): RouterSnapshot {
  const saved = initial.history?.scroll;
  return {
    state: initial.state,
    modules: initial.modules,
    href: toLocal(href),
    commit: 0,
    scroll: saved ? { kind: 'restore', ...saved } : { kind: 'keep' },
    announce: false,
    pending: false,
  };
}

/** Whether two URLs differ by their hash alone: going from one to the other loads nothing. */
function sameDocument(a: URL, b: URL): boolean {
  return a.origin === b.origin && a.pathname === b.pathname && a.search === b.search;
}

/** Pathname, search and hash of an absolute URL, as the address bar shows them. */
export function toLocal(href: string): string {
  const url = new URL(href);
  // `//x/y` is a path on this site, but history would read it as the host `x`.
  return url.pathname.replace(/^\/{2,}/, '/') + url.search + url.hash;
}

export function createLazyRouter(options: LazyRouterOptions): LazyRouter {
  const { effects, budgetMs, reportError = console.error } = options;
  const listeners = new Set<() => void>();
  const events = createNavigationEvents(reportError);
  const blockers = createBlockerGate({ ...effects, reportError });
  let snapshot = firstSnapshot(options.initial, effects.currentHref());
  let loaded: Router | undefined;
  let loading: Promise<Router> | undefined;

  const notify = () => listeners.forEach((listener) => listener());
  const ready = () =>
    (loading ??= options.load(events, blockers).then(
      (router) => {
        loaded = router;
        // From here the router's own snapshots are the ones React reads.
        router.subscribe(() => {
          snapshot = router.getSnapshot();
          notify();
        });
        return router;
      },
      (error: unknown) => {
        reportError('switchyard: the router did not load; links load pages in full', error);
        throw error;
      },
    ));

  /** The router, or `undefined` if it failed to load or took longer than the budget. */
  const within = (ms: number): Promise<Router | undefined> =>
    new Promise((resolve) => {
      const timer = effects.setTimeout(() => resolve(undefined), ms);
      const done = (router?: Router) => {
        effects.clearTimeout(timer);
        resolve(router);
      };
      ready().then(done, () => done());
    });

  const setPending = (pending: boolean) => {
    if (snapshot.pending === pending) return;
    snapshot = { ...snapshot, pending };
    notify();
  };

  /**
   * Runs a navigation on the router; without it in time, loads `href` in full, or, without an
   * `href`, the document's own URL again, showing as pending until the browser unloads the page.
   * A target that differs from the page only by its hash is a scroll, not a load: nothing would
   * end that pending state, so it ends here.
   */
  async function navigation(
    run: (router: Router) => Promise<NavigationOutcome>,
    kind: NavigationKind,
    href?: string,
  ): Promise<NavigationOutcome> {
    if (loaded) return run(loaded);
    setPending(true);
    const router = await within(budgetMs);
    if (router) {
      const outcome = run(router);
      // A blocker may block the navigation: then nothing is on its way.
      setPending(router.getSnapshot().pending);
      return outcome;
    }
    const target = new URL(href ?? effects.currentHref(), effects.currentHref());
    const started = events.start(kind, target.href);
    started.settle({ status: 'hard', url: target.href });
    if (href === undefined) effects.reload();
    else {
      if (target.hash && sameDocument(target, new URL(effects.currentHref()))) setPending(false);
      effects.assign(target.href);
    }
    return started.outcome;
  }

  /**
   * Calls that may wait for the router, in order, and need no fallback. Once it runs they run at
   * once: an action's redirect invalidates, then navigates, and the navigation must see it.
   */
  const whenLoaded = (run: (router: Router) => void) => {
    if (loaded) run(loaded);
    else void ready().then(run, () => {});
  };

  return {
    ready,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    navigate: (href, navigateOptions?: NavigateOptions) =>
      navigation(
        (router) => router.navigate(href, navigateOptions),
        navigateOptions?.replace ? 'replace' : 'push',
        href,
      ),
    // Without the router, the page is loaded again: `assign` to a URL with a hash would only scroll.
    refresh: () => navigation((router) => router.refresh(), 'refresh'),
    revalidate: (paths) => navigation((router) => router.revalidate(paths), 'refresh'),
    // The browser has already moved to the entry: without the router, load it in full.
    onPopState: (entry) => navigation((router) => router.onPopState(entry), 'pop'),
    back: () => effects.go(-1),
    forward: () => effects.go(1),
    // Nothing to save before the router runs: no navigation can have happened.
    saveScroll: () => loaded?.saveScroll(),
    // Without the router's code there is no cache: the prefetch is skipped.
    prefetch: (href, kind, trigger) =>
      loaded
        ? loaded.prefetch(href, kind, trigger)
        : ready().then(
            (router) => router.prefetch(href, kind, trigger),
            () => ({ status: 'skipped' }) as const,
          ),
    invalidate: (path, scope) => whenLoaded((router) => router.invalidate(path, scope)),
    onNavigation: (listener) => events.subscribe(listener),
    blockers,
    devtools() {
      if (!loaded) throw new Error('switchyard: the router has not loaded yet');
      return loaded.devtools();
    },
  };
}
