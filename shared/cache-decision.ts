/**
 * What a navigation does with the prefetch cache's answer for its URL, in two steps: before it
 * waits (`chooseSource`: take the entry, or fetch a page of its own), and once the entry has
 * settled (`planFromEntry`: what the first render shows and what is fetched after it). Pure: the
 * status comes from `statusOf` (prefetch-status.ts); nothing here reads a clock.
 *
 *   entry                      first render                         then fetches
 *   missing, expired, failed   a `temporary` entry, fetched now      what it left below a loading state
 *   fresh / reusable, whole    the entry                             nothing
 *   fresh / reusable, partial  the entry, its loading state          the rest (`rest`)
 *   stale, whole               all data again, the scripts reused    nothing
 *   stale, partial             the entry's loading state             all data again (`full`)
 */
import type { DataMode } from './page-data.js';
import type { EntryStatus } from './prefetch-status.js';

export type Source = 'entry' | 'fetch';

/** An entry as the decision sees it: its status now, and whether its prefetch failed. */
export interface FoundEntry {
  status: EntryStatus;
  failed: boolean;
}

/**
 * An expired entry is as good as none; a failed one is kept (so its link is not prefetched again
 * and again) but gives nothing to render.
 */
export function chooseSource(found: FoundEntry | undefined): Source {
  return found && found.status !== 'expired' && !found.failed ? 'entry' : 'fetch';
}

export interface EntryPlan {
  /** `entry`: render what the entry holds; `refetch`: fetch all data first, reuse the scripts. */
  first: 'entry' | 'refetch';
  /** What to fetch after the first render, behind the loading state it shows. */
  after: Extract<DataMode, 'rest' | 'full'> | undefined;
}

/** `partial`: the entry stops at a loading state (an `auto` prefetch of a route with one). */
export function planFromEntry(status: Exclude<EntryStatus, 'expired'>, partial: boolean): EntryPlan {
  if (status !== 'stale') return { first: 'entry', after: partial ? 'rest' : undefined };
  // Stale: the data may be old. A loading state can stand in while all of it comes again.
  return partial ? { first: 'entry', after: 'full' } : { first: 'refetch', after: undefined };
}
