/**
 * Prefetching: the cache of entries and the queue that fills it. A prefetch asks for the
 * route's scripts and its data — down to the first loading state for `auto`, all of it for
 * `full` — through the queue (5 at once), and gives up after `PREFETCH_TIMEOUT_MS`, so a hung
 * request never holds a place in the queue. A failed prefetch keeps its entry until it expires:
 * its link is not fetched again each time it scrolls into view. A navigation looks its key up
 * here first; expired entries are pruned at every lookup and every prefetch.
 *
 * What it costs the user's link: a request names the page it is made from, so the server leaves
 * out the layout data this page already holds, and the entry takes it from here. Links only in
 * view spend from a byte budget per page view (shared/prefetch-budget.ts); intent goes first in
 * the queue and past the budget. Leaving the page cancels its prefetches, waiting or running,
 * and none starts while a navigation is on its way; one that ends on the page asks for them again.
 */
import { shouldPrefetch } from '../shared/cache-decision.js';
import { PREFETCH_CONCURRENCY, PREFETCH_MAX_WAITING, PREFETCH_TIMEOUT_MS } from '../shared/constants.js';
import { isIntercepted } from '../shared/page-data.js';
import type { PageState } from '../shared/page-state.js';
import { cacheKey, createPrefetchCache, type CacheEntry } from '../shared/prefetch-cache.js';
import { createPrefetchBudget } from '../shared/prefetch-budget.js';
import { createPrefetchQueue, Dropped, type Lane } from '../shared/prefetch-queue.js';
import { DEFAULT_POLICY, type CachePolicy, type EntryStatus } from '../shared/prefetch-status.js';
import { startDeadline } from './deadline.js';
import { isPartial } from './page-data-client.js';
import type { PageFetcher } from './page-fetch.js';
import type {
  CachedPage,
  DevtoolsSource,
  NavigationOutcome,
  PrefetchOutcome,
  PrefetchTrigger,
  RouterEffects,
} from './router-types.js';

/** What a lookup finds: an entry, its status now, and what the cache decision needs. */
export interface Found {
  entry: CacheEntry<CachedPage>;
  status: EntryStatus;
  intercepted: boolean;
  failed: boolean;
}

export interface PrefetcherOptions {
  effects: RouterEffects;
  pages: PageFetcher;
  /** Pathname and search of the page the user is on (under a modal: the page under it). */
  currentPage: () => string;
  /**
   * The state of that page, whose layout data is not fetched again; `undefined` while that data
   * may be out of date (a refresh or a revalidation on its way).
   */
  currentState: () => PageState | undefined;
  policy?: CachePolicy | undefined;
  concurrency?: number | undefined;
}

export function createPrefetcher({
  effects,
  pages,
  currentPage,
  currentState,
  policy = DEFAULT_POLICY,
  concurrency = PREFETCH_CONCURRENCY,
}: PrefetcherOptions) {
  // A route may declare its own windows: its entries are judged by them once its data is in.
  const cache = createPrefetchCache<CachedPage>({
    policy,
    ownPolicy: (page) => (isIntercepted(page) ? undefined : page.state.cachePolicy),
  });
  const queue = createPrefetchQueue(concurrency);
  const budget = createPrefetchBudget();
  /** Links in view that the budget deferred, oldest first: they go when a prefetch frees room. */
  let deferred: Asked[] = [];
  /** What each prefetch waiting or running was asked, by key (an upgrade: while it waits on the auto one). */
  const queued = new Map<string, Asked>();
  /**
   * What the navigations on their way cancelled of the page's prefetches: asked for again if the
   * last one ends on the page, whose links in view will not ask twice. Bounded by what the queue
   * and the deferred links hold.
   */
  let cancelled: Asked[] = [];

  /** The key of a URL from the page the user is on: an intercepted answer is another entry. */
  function keyOf(url: URL): { key: string; intercepted: boolean } {
    const from = new URL(currentPage(), url).pathname;
    const variant = effects.interceptionOf?.(url.pathname, from);
    return { key: cacheKey(url, variant), intercepted: variant !== undefined };
  }

  /**
   * The page a prefetch is made from, when its layout data can stand in for the server's: the
   * whole of it is here (not a page waiting for what is behind its loading state, nor a
   * not-found or error page, which hold less than their URL's route).
   */
  function currentPageState(): { from: string; state: PageState } | undefined {
    const state = currentState();
    if (!state || state.pendingAt !== undefined || state.notFound !== undefined || state.error)
      return undefined;
    return { from: currentPage(), state };
  }

  async function fetchEntry(
    url: URL,
    kind: 'auto' | 'full',
    intercepted: boolean,
    cancelled: AbortSignal,
    onBytes: (bytes: number) => void,
  ): Promise<CachedPage> {
    // An interception needs the server to know where the user is; the rest is trimmed by it.
    const page = currentPageState();
    const from = page?.from ?? (intercepted ? currentPage() : '');
    // Cancelled (the user left the page) ends it at once too, on scripts as on data.
    const deadline = startDeadline(
      effects,
      PREFETCH_TIMEOUT_MS,
      `prefetch of ${url.pathname} timed out`,
      cancelled,
    );
    try {
      // A redirect or a URL that is no page fails the entry: a click fetches it again, and
      // follows it (or leaves the app for it) with its own checks. The entry stands on its own,
      // with this page's layout data where the server left it out: it may be used from any page.
      const [fetched] = await deadline.race(
        Promise.all([
          pages.fetchPage(url, {
            from,
            mode: kind,
            signal: deadline.signal,
            base: page?.state,
            // Named only for an interception, a page whose data is not here is asked for whole.
            whole: page === undefined,
            prefetch: { modulesWithin: deadline.race, onBytes },
          }),
          effects.preloadRoute?.(url.pathname),
        ]),
      );
      return fetched;
    } finally {
      deadline.clear();
    }
  }

  /** Starts a prefetch: the queue runs it, the cache holds its entry from now. */
  function start(
    url: URL,
    key: string,
    intercepted: boolean,
    kind: 'auto' | 'full',
    lane: Lane,
  ): CacheEntry<CachedPage> {
    const now = effects.now();
    const ticket = budget.open();
    let started = false;
    const asked = { href: url.href, kind, lane };
    queued.set(key, asked);
    const promise = queue.add(
      key,
      (cancellation) => {
        started = true;
        const cancelled = new AbortController();
        cancellation.onCancel((reason) => cancelled.abort(reason));
        return fetchEntry(url, kind, intercepted, cancelled.signal, ticket.settle);
      },
      lane,
    );
    const entry: CacheEntry<CachedPage> = cache.add(key, kind, promise, now);
    promise
      .catch((error: unknown) => {
        // Dropped by the queue (full, the page was left, or the cache cleared): nothing is known
        // of the URL, so no entry stays. Any other failure keeps its entry until it expires.
        if (error instanceof Dropped && cache.get(key) === entry) cache.delete(key);
      })
      .finally(() => {
        if (queued.get(key) === asked) queued.delete(key);
        // A ticket counts once: settled by the response, this is a no-op. Otherwise one that
        // never started cost nothing, and one that failed or was cut short, its estimate.
        if (started) ticket.cancel();
        else ticket.release();
        drainDeferred();
      });
    return entry;
  }

  /**
   * What a prefetch of `entry` tells its caller once the entry settles: its status then, or that
   * it failed; dropped by the queue before it ran, what the entry that took its place tells (a
   * `full` prefetch), or else that it was skipped: it left no entry.
   */
  function outcomeOf(entry: CacheEntry<CachedPage> | undefined): Promise<PrefetchOutcome> {
    if (!entry) return Promise.resolve({ status: 'skipped' });
    return settled(entry).then(
      () => ({ status: cache.status(entry, effects.now()) }),
      (error: unknown) => {
        const next = cache.get(entry.key);
        if (!(error instanceof Dropped)) return { status: 'failed' };
        return next && next !== entry ? outcomeOf(next) : { status: 'skipped' };
      },
    );
  }

  /**
   * Links the budget deferred go, oldest first, while they fit, and while links in view may
   * prefetch at all (Save-Data may have been turned on since they were deferred).
   */
  function drainDeferred(): void {
    if (!(effects.canPrefetch?.('viewport') ?? true)) deferred = [];
    while (deferred.length > 0 && budget.fits()) {
      const { href, kind } = deferred.shift()!;
      void prefetch(href, kind, 'viewport');
    }
  }

  /**
   * Queues a prefetch unless the cache holds an entry that has not expired (a stale one too:
   * a navigation knows how to use it), or a `full` prefetch finds only `auto` data: then it takes
   * the place of that `auto` prefetch if it still waits, or goes once it settles if it runs. A
   * link only in view waits for room in the budget (and is `skipped` for its caller: it may never
   * go); intent moves a waiting prefetch up the queue. Resolves when the entry it leaves settles.
   */
  function prefetch(href: string, kind: 'auto' | 'full', trigger: PrefetchTrigger): Promise<PrefetchOutcome> {
    const here = new URL(effects.currentHref());
    const url = new URL(href, here);
    // Another site's page is not ours to fetch; the page on screen (`#comments`) is here already.
    if (url.origin !== here.origin || url.pathname + url.search === here.pathname + here.search)
      return outcomeOf(undefined);
    const { key, intercepted } = keyOf(url);
    const now = effects.now();
    cache.prune(now);
    const existing = cache.get(key);
    const upgrade = kind === 'full' && existing?.kind === 'auto';
    // An upgrade takes the place of an `auto` prefetch still waiting, its share of the budget,
    // and the lane intent gave it: one request, not two.
    const replaced = upgrade ? queue.drop(key) : undefined;
    const lane: Lane = trigger === 'viewport' && replaced !== 'intent' ? 'viewport' : 'intent';
    if (queue.has(key)) {
      if (lane === 'intent') {
        queue.promote(key);
        // Asked again after a navigation cut it short, it goes as it goes now.
        const asked = queued.get(key);
        if (asked) asked.lane = 'intent';
      }
      if (!upgrade) return outcomeOf(existing);
      // One URL is never fetched twice at once: the upgrade waits for the `auto` data on its way,
      // and is not asked if the queue dropped that (the page was left: a navigation that ends
      // on it asks again for what it holds here, the upgrade), nor if it failed (its entry
      // keeps the URL from being asked again until it expires).
      const asked = { href, kind, lane };
      queued.set(key, asked);
      return outcomeOf(existing).then((o) => {
        if (queued.get(key) === asked) queued.delete(key);
        return o.status === 'skipped' || o.status === 'failed' ? o : prefetch(href, kind, trigger);
      });
    }
    if (existing && !shouldPrefetch({ status: cache.status(existing, now), kind: existing.kind }, kind))
      return outcomeOf(existing);
    if (lane === 'viewport' && !replaced && !budget.fits()) {
      // A link deferred already keeps its place; asked for in full, it goes in full.
      const earlier = deferred.find((d) => d.href === href);
      if (!earlier) deferred.push({ href, kind, lane });
      else if (kind === 'full') earlier.kind = kind;
      if (deferred.length > PREFETCH_MAX_WAITING) deferred.shift();
      return outcomeOf(undefined);
    }
    return outcomeOf(start(url, key, intercepted, kind, lane));
  }

  /**
   * The user leaves the page: its prefetches stop, waiting or running, but the one of `keep`
   * (the page the user goes to), and the next page gets a budget of its own.
   */
  function leave(keep?: string): void {
    cancelled = [];
    queue.cancel(keep);
    deferred = [];
    budget.newPageView();
  }

  return {
    prefetch,

    /** The entry for a URL, its status now (after pruning), and whether its prefetch failed. */
    lookup(url: URL): Found | undefined {
      const now = effects.now();
      cache.prune(now);
      const { key, intercepted } = keyOf(url);
      const entry = cache.get(key);
      if (!entry) return undefined;
      return {
        entry,
        status: cache.status(entry, now),
        intercepted,
        failed: entry.result.state === 'rejected',
      };
    },

    /** Records a navigation's use; a waiting prefetch of that key starts at once. */
    use(entry: CacheEntry<CachedPage>): void {
      cache.use(entry, effects.now());
      queue.bump(entry.key);
    },

    /**
     * A navigation that found nothing usable, or a stale entry whose data it fetches again, stores
     * what it fetches as a `temporary` entry: under `key`, or that of `url` from the page on
     * screen. Cut short (`signal`) by a newer navigation, it leaves none: that is no failure, and
     * nothing is known of the URL.
     */
    addTemporary(url: URL, promise: Promise<CachedPage>, signal: AbortSignal, key = keyOf(url).key): void {
      const entry = cache.add(key, 'temporary', promise, effects.now());
      cache.use(entry, effects.now());
      promise.catch(() => signal.aborted && cache.get(entry.key) === entry && cache.delete(entry.key));
    },

    invalidate: (path: string, scope?: 'page' | 'layout') => cache.invalidate(path, scope),

    leave,

    /**
     * A navigation starts: the page is left (see `leave`), and no prefetch starts until the
     * returned call says the navigation ended: its own requests have the link to themselves. If it
     * ends with no new page view (a hash link on the page, a redirect back to it, a refused full
     * load) and no newer navigation on its way, what it cancelled is asked for again.
     */
    navigating(keep?: string): (outcome: NavigationOutcome) => void {
      const mine = [
        // (The kept one's prefetch, asked again, is found on its way or in the cache.)
        ...queued.values(),
        ...deferred,
        ...cancelled,
      ].slice(0, 2 * PREFETCH_MAX_WAITING);
      leave(keep);
      cancelled = mine;
      const resume = queue.pause();
      return ({ status }) => {
        resume();
        if (cancelled !== mine || status === 'hard') return;
        cancelled = [];
        // As each was asked, if it may still be (Save-Data may have been turned on meanwhile).
        for (const { href, kind, lane } of mine)
          if (effects.canPrefetch?.(lane) ?? true) void prefetch(href, kind, lane);
      };
    },

    clear(): void {
      cache.clear();
      queue.cancel();
      deferred = [];
    },

    /** What the devtools read; the router adds its clock and its own setting. */
    inspect: (): Omit<DevtoolsSource, 'now' | 'settings'> & {
      settings: Omit<DevtoolsSource['settings'], 'routeScriptTimeoutMs'>;
    } => ({
      settings: { ...policy, concurrency, prefetchTimeoutMs: PREFETCH_TIMEOUT_MS },
      cache,
      queue,
      budget,
      deferred,
      isPartial,
    }),
  };
}

export type Prefetcher = ReturnType<typeof createPrefetcher>;

/** A prefetch as it was asked, to ask it again. */
interface Asked {
  href: string;
  kind: 'auto' | 'full';
  lane: Lane;
}

/** Reads an entry's result, waiting if it is still on its way. */
export function settled(entry: CacheEntry<CachedPage>): Promise<CachedPage> {
  const { result } = entry;
  if (result.state === 'resolved') return Promise.resolve(result.value);
  if (result.state === 'rejected')
    return Promise.reject(result.error instanceof Error ? result.error : new Error('prefetch failed'));
  return result.promise;
}
