/**
 * The brief's numbers, in one place. Everything that times, bounds or queues reads its default
 * from here; config and routes may override (SPEC C8).
 */

/** An entry is fresh (unused) or reusable (used) this long after its last use or its prefetch. */
export const FRESH_WINDOW_MS = 30_000;
/** `auto` entries stay stale and `full` entries reusable this long after their prefetch. */
export const STALE_WINDOW_MS = 300_000;
/** Prefetches that may run at once. */
export const PREFETCH_CONCURRENCY = 5;
/** A navigation whose route scripts have not loaded by then becomes a hard navigation. */
export const ROUTE_SCRIPT_TIMEOUT_MS = 3_800;
/** A server render still running after this long is aborted and ends with its fallbacks. */
export const RENDER_DEADLINE_MS = 10_000;
/** A hard navigation to the same URL within this long is refused: it would be a reload loop. */
export const HARD_NAVIGATION_GUARD_MS = 10_000;
/** Pages whose state the router keeps for back and forward. */
export const HISTORY_ENTRIES_HELD = 50;
