/**
 * The whole cache decision: what a navigation does with the prefetch cache's answer for its URL,
 * and when a prefetch asks again. A navigation decides in three steps: before it waits
 * (`chooseSource`: take the entry, or fetch a page of its own), with nothing usable
 * (`planOwnFetch`: how much to ask for, and whether to keep it), and once its page is in
 * (`planFromEntry`: what the first render shows and what is fetched after it). Pure: the status
 * comes from `statusOf` (prefetch-status.ts); nothing here reads a clock.
 *
 *   a navigation finds         first render                          then fetches
 *   missing, expired, failed   its own fetch (push, replace: kept    what it left below a loading state
 *                              as a `temporary` entry, asked `auto`
 *                              down to a loading state)
 *   fresh / reusable, whole    the entry                             nothing
 *   fresh / reusable, partial  the entry, its loading state          the rest (`rest`)
 *   stale, whole               all data again, the scripts reused    nothing
 *                              (kept as a `temporary` entry)
 *   stale, partial             the entry's loading state             all data again (`full`, kept
 *                                                                   as a `temporary` entry)
 *
 *   a prefetch finds           it
 *   missing, expired           prefetches
 *   fresh, reusable, stale     does not (a navigation knows how to use a stale entry)
 *   failed                     does not, until it expires (its link is not asked for again and again)
 *   `auto` data, asked `full`  prefetches all of it (the upgrade: in the place of an `auto`
 *                              prefetch still waiting, after one running has settled)
 */
import type { DataMode } from './page-data.js';
import type { EntryStatus, PrefetchKind } from './prefetch-status.js';

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

export interface OwnFetchPlan {
  /** `auto`: down to the route's loading state, so that it shows after one round trip. */
  mode: 'auto' | undefined;
  /** Kept in the cache as a `temporary` entry, for the next click on the same link. */
  temporary: boolean;
}

/**
 * A navigation with nothing usable in the cache. A push or replace asks a route with a loading
 * state for what renders outside it, and keeps what it fetches. Back, forward and refresh neither
 * read the cache nor write to it, and ask for the whole page.
 */
export function planOwnFetch(
  kind: 'push' | 'replace' | 'pop' | 'refresh',
  hasLoadingState: boolean,
): OwnFetchPlan {
  const pushed = kind === 'push' || kind === 'replace';
  return { mode: pushed && hasLoadingState ? 'auto' : undefined, temporary: pushed };
}

export interface EntryPlan {
  /** `entry`: render what the entry holds; `refetch`: fetch all data first, reuse the scripts. */
  first: 'entry' | 'refetch';
  /** What to fetch after the first render, behind the loading state it shows. */
  after: Extract<DataMode, 'rest' | 'full'> | undefined;
}

/**
 * `partial`: the page stops at a loading state (an `auto` prefetch or fetch of a route with
 * one). A page the navigation fetched itself is as good as a `fresh` entry.
 */
export function planFromEntry(status: Exclude<EntryStatus, 'expired'>, partial: boolean): EntryPlan {
  if (status !== 'stale') return { first: 'entry', after: partial ? 'rest' : undefined };
  // Stale: the data may be old. A loading state can stand in while all of it comes again.
  return partial ? { first: 'entry', after: 'full' } : { first: 'refetch', after: undefined };
}

/**
 * Whether a prefetch of `kind` asks the server, given what the cache holds for its key. An entry
 * that has not expired is kept, stale or failed, unless `full` data is asked where it holds only
 * `auto` data.
 */
export function shouldPrefetch(
  existing: { status: EntryStatus; kind: PrefetchKind } | undefined,
  kind: 'auto' | 'full',
): boolean {
  if (!existing || existing.status === 'expired') return true;
  return kind === 'full' && existing.kind === 'auto';
}
