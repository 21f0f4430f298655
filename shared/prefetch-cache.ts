/**
 * The prefetch cache: entries by key, each with its kind, times and the
 * pending or settled response. The key is pathname plus search (never the hash). The cache
 * never reads a clock: every call that needs the time is given `now`, and it is the only writer
 * of its entries.
 * Bounds: expired entries go at every prune; past `maxEntries` the least recently used go.
 */
import {
  DEFAULT_POLICY,
  lastUsedAfterUse,
  statusOf,
  type CachePolicy,
  type EntryStatus,
  type PrefetchKind,
} from './prefetch-status.js';
import { setNewest } from './lru.js';

export type EntryResult<T> =
  | { state: 'pending'; promise: Promise<T> }
  | { state: 'resolved'; value: T }
  | { state: 'rejected'; error: unknown };

export interface CacheEntry<T> {
  key: string;
  kind: PrefetchKind;
  prefetchTime: number;
  lastUsedTime?: number;
  result: EntryResult<T>;
  /** Windows for this entry's route, when it declares its own. */
  policy?: CachePolicy;
}

export const MAX_ENTRIES = 200;

/**
 * The cache key of a URL: its pathname and search (`load` sees search params), never the hash.
 * An answer that depends on interception names its variant after a space (which a URL's path
 * and search never hold): `/photos/3 (feed)/@modal` is the photo shown in that modal.
 */
export function cacheKey(url: { pathname: string; search: string }, variant?: string): string {
  return variant === undefined ? url.pathname + url.search : `${url.pathname}${url.search} ${variant}`;
}

/**
 * Whether revalidating `path` affects the page at `pathname`: the same path (any search), or,
 * with the `layout` scope, any path below it too.
 */
export function isAffected(pathname: string, path: string, scope: 'page' | 'layout' = 'page'): boolean {
  const base = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const below = scope === 'layout' && (base === '/' || pathname.startsWith(`${base}/`));
  return pathname === base || below;
}

export interface PrefetchCache<T> {
  get(key: string): CacheEntry<T> | undefined;
  status(entry: CacheEntry<T>, now: number): EntryStatus;
  /** Adds an entry for a response still on its way; it settles itself. */
  add(key: string, kind: PrefetchKind, promise: Promise<T>, now: number, policy?: CachePolicy): CacheEntry<T>;
  /** Records a use: the first use sets lastUsedTime, and so does a use of a stale entry. */
  use(entry: CacheEntry<T>, now: number): void;
  delete(key: string): void;
  /** Drops every expired entry; returns how many went. */
  prune(now: number): number;
  /** Drops the entries a path affects: that path with any search, or also everything below it. */
  invalidate(path: string, scope?: 'page' | 'layout'): number;
  clear(): void;
  /** Every entry, least recently used first (shared/entry-view.ts describes them). */
  entries(): CacheEntry<T>[];
  /** The windows an entry is judged by: its route's own, or the cache's. */
  policyOf(entry: CacheEntry<T>): CachePolicy;
  readonly size: number;
}

export interface PrefetchCacheOptions<T> {
  policy?: CachePolicy;
  maxEntries?: number;
  /** The windows a settled value declares for its own entry, if any: they apply from then on. */
  ownPolicy?: (value: T) => CachePolicy | undefined;
}

export function createPrefetchCache<T>(options: PrefetchCacheOptions<T> = {}): PrefetchCache<T> {
  const defaultPolicy = options.policy ?? DEFAULT_POLICY;
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  // Map order is recency order: a use or an add moves the entry to the end.
  const map = new Map<string, CacheEntry<T>>();
  const policyOf = (entry: CacheEntry<T>) => entry.policy ?? defaultPolicy;
  const status = (entry: CacheEntry<T>, now: number) => statusOf(entry, now, policyOf(entry));

  return {
    get: (key) => map.get(key),
    status,
    add(key, kind, promise, now, policy) {
      const entry: CacheEntry<T> = { key, kind, prefetchTime: now, result: { state: 'pending', promise } };
      if (policy) entry.policy = policy;
      promise.then(
        (value) => {
          const own = options.ownPolicy?.(value);
          if (own) entry.policy = own;
          entry.result = { state: 'resolved', value };
        },
        // A failed entry stays until it expires, so its link is not fetched again and again; a
        // navigation treats it as missing (shared/cache-decision.ts).
        (error: unknown) => (entry.result = { state: 'rejected', error }),
      );
      setNewest(map, key, entry, maxEntries);
      return entry;
    },
    use(entry, now) {
      entry.lastUsedTime = lastUsedAfterUse(entry, now, policyOf(entry));
      if (map.get(entry.key) === entry) setNewest(map, entry.key, entry);
    },
    delete: (key) => void map.delete(key),
    prune(now) {
      let dropped = 0;
      for (const [key, entry] of map) {
        if (status(entry, now) === 'expired') {
          map.delete(key);
          dropped++;
        }
      }
      return dropped;
    },
    invalidate(path, scope = 'page') {
      let dropped = 0;
      for (const key of [...map.keys()]) {
        if (isAffected(key.split(/[? ]/)[0]!, path, scope)) {
          map.delete(key);
          dropped++;
        }
      }
      return dropped;
    },
    clear: () => map.clear(),
    entries: () => [...map.values()],
    policyOf,
    get size() {
      return map.size;
    },
  };
}
