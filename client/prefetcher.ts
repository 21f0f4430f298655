/**
 * Prefetching: the cache of entries and the queue that fills it. A prefetch asks for the
 * route's scripts and its data — down to the first loading state for `auto`, all of it for
 * `full` — through the queue (5 at once), and gives up after `PREFETCH_TIMEOUT_MS`, so a hung
 * request never holds a place in the queue. A failed prefetch keeps its entry until it expires:
 * its link is not fetched again each time it scrolls into view. A navigation looks its key up
 * here first; expired entries are pruned at every lookup and every prefetch.
 */
import { PREFETCH_CONCURRENCY, PREFETCH_TIMEOUT_MS } from '../shared/constants';
import { isIntercepted, isRedirectAnswer, PAGE_DATA_TYPE, pageDataUrl } from '../shared/page-data';
import { cacheKey, createPrefetchCache, type CacheEntry } from '../shared/prefetch-cache';
import { createPrefetchQueue, QueueFull } from '../shared/prefetch-queue';
import { DEFAULT_POLICY, type CachePolicy, type EntryStatus } from '../shared/prefetch-status';
import { filesOf, segmentFilesOf } from '../shared/page-state';
import { startDeadline } from './deadline';
import { readPageData } from './page-data-client';
import type { CachedPage, DevtoolsSnapshot, RouterEffects } from './router-types';

/** What a lookup finds: an entry, its status now, and what the cache decision needs. */
export interface Found {
  entry: CacheEntry<CachedPage>;
  status: EntryStatus;
  intercepted: boolean;
  failed: boolean;
}

export interface PrefetcherOptions {
  effects: RouterEffects;
  buildId: string;
  /** Pathname and search of the page the user is on (under a modal: the page under it). */
  currentPage: () => string;
  policy?: CachePolicy;
  concurrency?: number;
}

export function createPrefetcher({
  effects,
  buildId,
  currentPage,
  policy = DEFAULT_POLICY,
  concurrency = PREFETCH_CONCURRENCY,
}: PrefetcherOptions) {
  const cache = createPrefetchCache<CachedPage>({ policy });
  const queue = createPrefetchQueue(concurrency);

  /** The key of a URL from the page the user is on: an intercepted answer is another entry. */
  function keyOf(url: URL): { key: string; intercepted: boolean } {
    const from = new URL(currentPage(), url).pathname;
    const variant = effects.interceptionOf?.(url.pathname, from);
    return { key: cacheKey(url, variant), intercepted: variant !== undefined };
  }

  async function fetchEntry(
    url: URL,
    kind: 'auto' | 'full',
    intercepted: boolean,
    entry: () => CacheEntry<CachedPage> | undefined,
  ): Promise<CachedPage> {
    // Only an interception needs the server to know where the user is; the rest is answered whole.
    const from = intercepted ? currentPage() : '';
    const deadline = startDeadline(effects, PREFETCH_TIMEOUT_MS, `prefetch of ${url.pathname} timed out`);
    try {
      const [data] = await deadline.race(
        Promise.all([
          effects
            .fetch(pageDataUrl(url.pathname + url.search, from, kind), {
              signal: deadline.signal,
              headers: { accept: PAGE_DATA_TYPE },
            })
            .then(readPageData),
          effects.preloadRoute?.(url.pathname),
        ]),
      );
      if (data.buildId !== buildId) throw new Error('a new build was deployed');
      // A redirect is the navigation's to follow, with its own checks: the entry fails, and a
      // click fetches the page itself and follows it.
      if (isRedirectAnswer(data)) throw new Error(`${url.pathname} redirects`);
      if (isIntercepted(data)) {
        const files = segmentFilesOf(data.intercept.state.segments);
        return { ...data, modules: await deadline.race(effects.loadModules(files)) };
      }
      const { status: _status, ...state } = data;
      // An entry must stand on its own: it may be used from any page.
      if (state.segments.some((s) => s.reuseLayoutData)) throw new Error('a prefetch came back trimmed');
      // A route may declare its own windows; they apply from now on.
      const own = entry();
      if (own && state.cachePolicy) own.policy = state.cachePolicy;
      return { state, modules: await deadline.race(effects.loadModules(filesOf(state))) };
    } finally {
      deadline.clear();
    }
  }

  return {
    /**
     * Queues a prefetch unless the cache holds an entry that has not expired (a stale one too:
     * a navigation knows how to use it, C3), or a `full` prefetch finds only `auto` data.
     */
    prefetch(href: string, kind: 'auto' | 'full'): void {
      const url = new URL(href, effects.currentHref());
      if (url.origin !== new URL(effects.currentHref()).origin) return;
      const { key, intercepted } = keyOf(url);
      const now = effects.now();
      cache.prune(now);
      const existing = cache.get(key);
      const upgrade = kind === 'full' && existing?.kind === 'auto';
      if ((existing && cache.status(existing, now) !== 'expired' && !upgrade) || queue.has(key)) return;
      // The fetch reads its entry only after its response is back, long after this line.
      const promise = queue.add(key, () => fetchEntry(url, kind, intercepted, () => entry));
      const entry: CacheEntry<CachedPage> = cache.add(key, kind, promise, now);
      promise.catch((error: unknown) => {
        // Dropped unstarted from a full queue: nothing is known of the URL, so keep no failure.
        if (error instanceof QueueFull && cache.get(key) === entry) cache.delete(key);
      }); // any other failure only means the navigation fetches itself
    },

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

    /** A navigation that found nothing usable stores what it fetches as a `temporary` entry. */
    addTemporary(url: URL, promise: Promise<CachedPage>): void {
      const entry = cache.add(keyOf(url).key, 'temporary', promise, effects.now());
      cache.use(entry, effects.now());
      promise.then(
        (page) => !isIntercepted(page) && page.state.cachePolicy && (entry.policy = page.state.cachePolicy),
        () => {},
      );
    },

    invalidate: (path: string, scope?: 'page' | 'layout') => cache.invalidate(path, scope),

    clear(): void {
      cache.clear();
      queue.clear();
    },

    /** The devtools' view; the router adds its own settings. */
    snapshot(): Omit<DevtoolsSnapshot, 'settings'> & {
      settings: Omit<DevtoolsSnapshot['settings'], 'routeScriptTimeoutMs'>;
    } {
      const now = effects.now();
      const running = queue.running();
      const waiting = queue.waiting();
      return {
        now,
        settings: { ...policy, concurrency, prefetchTimeoutMs: PREFETCH_TIMEOUT_MS },
        entries: cache.entries(now).map((view) => {
          const result = cache.get(view.key)?.result;
          const page = result?.state === 'resolved' ? result.value : undefined;
          return {
            ...view,
            partial: page !== undefined && !isIntercepted(page) && page.state.pendingAt !== undefined,
            queued: running.includes(view.key) ? 'running' : waiting.includes(view.key) ? 'waiting' : null,
          };
        }),
        queue: { running, waiting },
      };
    },
  };
}

export type Prefetcher = ReturnType<typeof createPrefetcher>;

/** Reads an entry's result, waiting if it is still on its way. */
export function settled(entry: CacheEntry<CachedPage>): Promise<CachedPage> {
  const { result } = entry;
  if (result.state === 'resolved') return Promise.resolve(result.value);
  if (result.state === 'rejected')
    return Promise.reject(result.error instanceof Error ? result.error : new Error('prefetch failed'));
  return result.promise;
}
