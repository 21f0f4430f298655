/**
 * A per-client limit on writes: each client may make `max` calls per `windowMs`, refilled
 * continuously (a token bucket), and is told how many seconds to wait when over it. The table
 * holds at most `maxClients` clients, the least recently seen dropped first, so it stays bounded
 * whatever the number of addresses. It never reads a clock: `now` is passed in. It lives in this
 * process's memory, so each process counts its own calls; a limit that must hold across them is
 * the app's, counted in its database by `callerAddress()`.
 */

export interface RateLimit {
  /** Calls one client may make in a burst, and per window. */
  max: number;
  windowMs: number;
}

export interface RateLimiter {
  /** `0` if `client` may go ahead (one call is counted), else the seconds until it may. */
  take(client: string, now: number): number;
  /** Clients currently tracked. */
  readonly size: number;
}

/** Clients tracked at once; one more drops the one seen longest ago. */
export const MAX_TRACKED_CLIENTS = 10_000;

export function createRateLimiter(
  { max, windowMs }: RateLimit,
  maxClients = MAX_TRACKED_CLIENTS,
): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = max / windowMs;
  return {
    take(client, now) {
      const bucket = buckets.get(client) ?? { tokens: max, at: now };
      // Moved to the end of the map's order: the first key is always the one seen longest ago.
      buckets.delete(client);
      buckets.set(client, bucket);
      if (buckets.size > maxClients) buckets.delete(buckets.keys().next().value!);
      bucket.tokens = Math.min(max, bucket.tokens + (now - bucket.at) * perMs);
      bucket.at = now;
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1_000));
    },
    get size() {
      return buckets.size;
    },
  };
}
