/**
 * A per-client limit on writes: each client may make `max` calls per `windowMs`, refilled
 * continuously (a token bucket), and is told how many seconds to wait when over it. The table
 * holds at most `maxClients` clients, the least recently seen dropped first, so it stays bounded
 * whatever the number of addresses. It never reads a clock: `now` is passed in. It lives in this
 * process's memory, so each process counts its own calls; a limit that must hold across them is
 * the app's, counted in its database by `callerAddress()`.
 */
import { isIPv6 } from 'node:net';

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

/**
 * What a limit counts as one client: an IPv4 address as it is, an IPv6 address as its /64
 * network (`2001:db8:0:7::/64`). One home or phone commonly gets a whole /64, and could take a
 * fresh address for every call; counted by address, it would never meet the limit. An IPv4
 * address written as IPv6 (`::ffff:203.0.113.7`) is the IPv4 address.
 */
export function clientKey(address: string): string {
  const plain = address.split('%')[0]!; // a zone (`fe80::1%eth0`) names the interface, not the host
  if (!isIPv6(plain)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = plain.split('::');
  const groups = (text: string) => (text === '' ? [] : text.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  // An IPv4 tail (`::1.2.3.4`) stands for two groups; only the first four matter here.
  const width = right.length + (right.at(-1)?.includes('.') ? 1 : 0);
  const all = [...left, ...Array<string>(Math.max(0, 8 - left.length - width)).fill('0'), ...right];
  return `${all
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
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
