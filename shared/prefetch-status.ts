/**
 * The status rule of a prefetch cache entry. Status is never stored: it is computed
 * from the entry, the time now and the policy, so it cannot go stale itself.
 *
 *   0. now < (lastUsedTime ?? prefetchTime)           → `expired`
 *   1. now < (lastUsedTime ?? prefetchTime) + fresh  → `reusable` if used, else `fresh`
 *   2. kind `auto` and now < prefetchTime + stale     → `stale`
 *   3. kind `full` and now < prefetchTime + stale     → `reusable`
 *   4. otherwise                                      → `expired`
 *
 * The stale window always counts from `prefetchTime`; a `temporary` entry is never stale. An
 * entry from a time still to come (the clock was put back: the devtools' real time after a move,
 * or a test's fake clock) is of an age nobody knows, so it is not trusted.
 */
import { FRESH_WINDOW_MS, STALE_WINDOW_MS } from './constants.js';

export type PrefetchKind = 'auto' | 'full' | 'temporary';
export type EntryStatus = 'fresh' | 'reusable' | 'stale' | 'expired';

export interface CachePolicy {
  /** How long an entry is fresh (unused) or reusable (used) after its prefetch or last use. */
  freshMs: number;
  /** How long after its prefetch an `auto` entry is stale and a `full` one reusable. */
  staleMs: number;
}

export const DEFAULT_POLICY: CachePolicy = Object.freeze({
  freshMs: FRESH_WINDOW_MS,
  staleMs: STALE_WINDOW_MS,
});

/** The part of an entry the rule reads. */
export interface Timed {
  kind: PrefetchKind;
  prefetchTime: number;
  lastUsedTime?: number | undefined;
}

export function statusOf(entry: Timed, now: number, policy: CachePolicy = DEFAULT_POLICY): EntryStatus {
  const since = entry.lastUsedTime ?? entry.prefetchTime;
  if (now < since) return 'expired';
  if (now < since + policy.freshMs) return entry.lastUsedTime === undefined ? 'fresh' : 'reusable';
  if (now < entry.prefetchTime + policy.staleMs) {
    if (entry.kind === 'auto') return 'stale';
    if (entry.kind === 'full') return 'reusable';
  }
  return 'expired';
}

/**
 * The `lastUsedTime` after a use at `now`: set by the first use, and set again by the use of a
 * stale entry (which refreshes its data); any other use leaves it.
 */
export function lastUsedAfterUse(entry: Timed, now: number, policy: CachePolicy = DEFAULT_POLICY): number {
  if (entry.lastUsedTime === undefined || statusOf(entry, now, policy) === 'stale') return now;
  return entry.lastUsedTime;
}
