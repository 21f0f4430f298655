/**
 * Prefetching (SPEC C2, C5–C7): the cache of entries and the queue that fills it. A prefetch
 * asks for the route's scripts and its data — down to the first loading state for `auto`, all
 * of it for `full` — through the queue (5 at once). A navigation looks its key up here first;
 * expired entries are pruned at every lookup and every prefetch.
 */
import { PREFETCH_CONCURRENCY } from '../shared/constants';
import { PAGE_DATA_TYPE, pageDataUrl } from '../shared/page-data';
import { cacheKey, createPrefetchCache, type CacheEntry } from '../shared/prefetch-cache';
import { createPrefetchQueue } from '../shared/prefetch-queue';
import { DEFAULT_POLICY, type CachePolicy, type EntryStatus } from '../shared/prefetch-status';
import { filesOf, type PageState } from '../shared/page-state';
import { readPageData } from './page-data-client';
import type { Modules, RouterEffects } from './router';

/** What an entry holds once settled: a page state (partial for `auto`) and its components. */
export interface Prefetched {
  state: PageState;
  modules: Modules;
}

export interface DevtoolsSnapshot {
  now: number;
  entries: {
    key: string;
    kind: string;
    status: EntryStatus;
    prefetchTime: number;
    lastUsedTime: number | null;
    timeLeft: number;
  }[];
  queue: { running: string[]; waiting: string[] };
}

export interface PrefetcherOptions {
  effects: RouterEffects;
  buildId: string;
  policy?: CachePolicy;
  concurrency?: number;
}

export function createPrefetcher({
  effects,
  buildId,
  policy = DEFAULT_POLICY,
  concurrency = PREFETCH_CONCURRENCY,
}: PrefetcherOptions) {
  const cache = createPrefetchCache<Prefetched>({ policy });
  const queue = createPrefetchQueue(concurrency);
  const neverAborted = new AbortController().signal;

  async function fetchEntry(
    url: URL,
    kind: 'auto' | 'full',
    entry: () => CacheEntry<Prefetched> | undefined,
  ) {
    const [data] = await Promise.all([
      effects
        .fetch(pageDataUrl(url.pathname + url.search, '', kind), {
          signal: neverAborted,
          headers: { accept: PAGE_DATA_TYPE },
        })
        .then(readPageData),
      effects.preloadRoute?.(url.pathname),
    ]);
    if (data.buildId !== buildId) throw new Error('a new build was deployed');
    const { status: _status, ...state } = data;
    // A route may declare its own windows (SPEC C8); they apply from now on.
    const own = entry();
    if (own && state.cachePolicy) own.policy = state.cachePolicy;
    return { state, modules: await effects.loadModules(filesOf(state)) };
  }

  return {
    /**
     * Queues a prefetch unless the cache holds an entry that has not expired (a stale one too:
     * a navigation knows how to use it, C3), or a `full` prefetch finds only `auto` data.
     */
    prefetch(href: string, kind: 'auto' | 'full'): void {
      const url = new URL(href, effects.currentHref());
      if (url.origin !== new URL(effects.currentHref()).origin) return;
      const key = cacheKey(url);
      const now = effects.now();
      cache.prune(now);
      const existing = cache.get(key);
      const upgrade = kind === 'full' && existing?.kind === 'auto';
      if ((existing && cache.status(existing, now) !== 'expired' && !upgrade) || queue.has(key)) return;
      // The fetch reads its entry only after its response is back, long after this line.
      const promise = queue.add(key, () => fetchEntry(url, kind, () => entry));
      const entry: CacheEntry<Prefetched> = cache.add(key, kind, promise, now);
      promise.catch(() => {}); // a failed prefetch only means the navigation fetches itself
    },

    /** The entry for a URL and its status now, after pruning. */
    lookup(url: URL): { entry: CacheEntry<Prefetched>; status: EntryStatus } | undefined {
      const now = effects.now();
      cache.prune(now);
      const entry = cache.get(cacheKey(url));
      return entry ? { entry, status: cache.status(entry, now) } : undefined;
    },

    /** Records a navigation's use; a waiting prefetch of that key starts at once. */
    use(entry: CacheEntry<Prefetched>): void {
      cache.use(entry, effects.now());
      queue.bump(entry.key);
    },

    /** A navigation that found nothing usable stores what it fetches as a `temporary` entry. */
    addTemporary(url: URL, promise: Promise<Prefetched>): void {
      const entry = cache.add(cacheKey(url), 'temporary', promise, effects.now());
      cache.use(entry, effects.now());
      promise.then(
        ({ state }) => state.cachePolicy && (entry.policy = state.cachePolicy),
        () => {},
      );
    },

    invalidate: (path: string, scope?: 'page' | 'layout') => cache.invalidate(path, scope),

    clear(): void {
      cache.clear();
      queue.clear();
    },

    snapshot(): DevtoolsSnapshot {
      const now = effects.now();
      return {
        now,
        entries: cache.entries(now),
        queue: { running: queue.running(), waiting: queue.waiting() },
      };
    },
  };
}

export type Prefetcher = ReturnType<typeof createPrefetcher>;

/** Reads an entry's result, waiting if it is still on its way. */
export function settled(entry: CacheEntry<Prefetched>): Promise<Prefetched> {
  const { result } = entry;
  if (result.state === 'resolved') return Promise.resolve(result.value);
  if (result.state === 'rejected')
    return Promise.reject(result.error instanceof Error ? result.error : new Error('prefetch failed'));
  return result.promise;
}
