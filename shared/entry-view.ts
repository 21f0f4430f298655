/**
 * How a cache entry reads to the devtools and the tests: its status now, the times until that
 * changes and until it expires, and where its response is. The cache itself never needs this,
 * so it lives apart and the router's code does not carry it. Every status comes from the
 * cache (`cache.status`, the rule of shared/prefetch-status.ts); this module imports no code.
 */
import type { CacheEntry, PrefetchCache } from './prefetch-cache.js';
import type { CachePolicy, EntryStatus, PrefetchKind } from './prefetch-status.js';

export interface EntryView {
  key: string;
  kind: PrefetchKind;
  status: EntryStatus;
  prefetchTime: number;
  lastUsedTime: number | null;
  /** Milliseconds until the status next changes (or the entry expires); 0 once expired. */
  nextChangeIn: number;
  /** Milliseconds until the entry expires, unless a use moves its fresh window; 0 once expired. */
  expiresIn: number;
  /** The windows this entry is judged by: its route's own, or the cache's. */
  policy: CachePolicy;
  /** Where its response is: on its way, settled, or failed (kept until the entry expires). */
  data: 'pending' | 'settled' | 'failed';
}

/** What a view reads of the cache: its entries, never to change them. */
type Viewed<T> = Pick<PrefetchCache<T>, 'status' | 'policyOf'> & {
  entries(): readonly Readonly<CacheEntry<T>>[];
};

const DATA_OF = { pending: 'pending', resolved: 'settled', rejected: 'failed' } as const;

/** Every entry of the cache as it reads at `now`, least recently used first. */
export function viewEntries<T>(cache: Viewed<T>, now: number): EntryView[] {
  return cache.entries().map((entry) => ({
    key: entry.key,
    kind: entry.kind,
    status: cache.status(entry, now),
    prefetchTime: entry.prefetchTime,
    lastUsedTime: entry.lastUsedTime ?? null,
    ...timesLeft(cache, entry, now),
    policy: cache.policyOf(entry),
    data: DATA_OF[entry.result.state],
  }));
}

/**
 * Times until the rule gives another answer and until it says `expired` (a temporary entry has
 * no stale window). The end of the fresh window is a change only if the rule answers otherwise
 * from then: a used `full` entry stays reusable until it expires.
 */
function timesLeft<T>(
  cache: Viewed<T>,
  entry: Readonly<CacheEntry<T>>,
  now: number,
): { nextChangeIn: number; expiresIn: number } {
  const policy = cache.policyOf(entry);
  const freshEnd = (entry.lastUsedTime ?? entry.prefetchTime) + policy.freshMs;
  const staleEnd = entry.kind === 'temporary' ? freshEnd : entry.prefetchTime + policy.staleMs;
  const expiry = Math.max(freshEnd, staleEnd);
  const status = cache.status(entry, now);
  const nextChange = cache.status(entry, freshEnd) === status ? expiry : freshEnd;
  // An expired entry, one from a time still to come too, only waits for the next prune.
  const left = (time: number) => (status === 'expired' ? 0 : time - now);
  return { nextChangeIn: left(nextChange), expiresIn: left(expiry) };
}
