/**
 * The brief's numbers, in one place. Everything that times, bounds or queues reads its default
 * from here; config and routes may override.
 */

/** An entry is fresh (unused) or reusable (used) this long after its last use or its prefetch. */
export const FRESH_WINDOW_MS = 30_000;
/** `auto` entries stay stale and `full` entries reusable this long after their prefetch. */
export const STALE_WINDOW_MS = 300_000;
/** Prefetches that may run at once. */
export const PREFETCH_CONCURRENCY = 5;
/**
 * A navigation whose route scripts have not loaded by then becomes a hard navigation. Waiting on
 * a prefetch (its data or its scripts) counts against the same budget, from the click.
 */
export const ROUTE_SCRIPT_TIMEOUT_MS = 3_800;
/** Prefetches that may wait for a place in the queue; past it the oldest waiting one is dropped. */
export const PREFETCH_MAX_WAITING = 50;
/** A prefetch that has not settled by then is abandoned (and its request aborted). */
export const PREFETCH_TIMEOUT_MS = 15_000;
/**
 * A server render still running after this long is aborted: one that has sent its shell ends
 * with its fallbacks; one that has sent nothing (loaders still running) answers 503.
 */
export const RENDER_DEADLINE_MS = 10_000;
/** The `Retry-After` of that 503: the page was slow now, not broken. */
export const RENDER_DEADLINE_RETRY_AFTER_S = 5;
/** A hard navigation to the same URL within this long is refused: it would be a reload loop. */
export const HARD_NAVIGATION_GUARD_MS = 10_000;
/** Pages whose state the router keeps for back and forward. */
export const HISTORY_ENTRIES_HELD = 50;
/** The Sentry tunnel refuses request bodies larger than this, counted as received. */
export const SENTRY_TUNNEL_MAX_BYTES = 1024 * 1024;
/** A gzip envelope may inflate to this much while the tunnel reads its header; more is a bomb. */
export const SENTRY_TUNNEL_MAX_DECOMPRESSED_BYTES = 10 * 1024 * 1024;
/** The Sentry tunnel answers 504 when Sentry has not answered by then. */
export const SENTRY_TUNNEL_TIMEOUT_MS = 5_000;
/** Redirects one navigation follows before it gives up and lets the browser load the page. */
export const MAX_REDIRECTS = 10;
/** A no-JS form's state waits this long for the page its 303 sends the browser back to. */
export const FORM_STATE_TTL_MS = 60_000;
/**
 * The longest no-JS form state cookie (value, signed and encoded): with its name and attributes
 * it stays under the 4096 bytes every browser keeps. A larger state is answered with the page.
 */
export const FORM_STATE_COOKIE_MAX_BYTES = 3_800;
/** Gzip envelopes the Sentry tunnel inflates at once, across all requests; more get a 503. */
export const SENTRY_TUNNEL_MAX_INFLATING = 4;
/** Server-action calls one client may make: this many per window, refilled as time passes. */
export const ACTION_RATE_LIMIT = { max: 30, windowMs: 10_000 } as const;
/**
 * Bytes on the wire that links coming into view may prefetch per page view. Intent (hover,
 * touch) is not held to it. Next.js's metadata-only prefetches of a 200-link page are about this.
 */
export const PREFETCH_BUDGET_BYTES = 48 * 1024;
/** A response's status line and the blank line that ends its headers (`HTTP/1.1 200 OK`). */
export const STATUS_LINE_BYTES = 19;
/** What a prefetch is guessed to cost before any has been measured. */
export const PREFETCH_FIRST_ESTIMATE_BYTES = 8 * 1024;
