/**
 * `callerAddress()`: inside a server action, the client that called it, for the app's own
 * per-client limits. The socket's peer, or behind N trusted proxies (`SWITCHYARD_TRUST_PROXY=N`)
 * the N-th `X-Forwarded-For` entry from the end: the one the furthest of them wrote, which a
 * client cannot choose. An
 * IPv6 address is given as its /64 network, which one subscriber usually holds whole
 * (`clientKey` in rate-limit.ts). Outside an action it is a misuse.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<string>();

/** Runs an action with `address` as its caller. */
export function runAsCaller<T>(address: string, run: () => Promise<T>): Promise<T> {
  return current.run(address, run);
}

/**
 * The calling client, as the framework's own rate limit counts it: an IPv4 address, or an IPv6
 * address's /64 network (`2001:db8:0:7::/64`).
 *
 * @example
 * export async function addComment(previous: State, form: FormData) {
 *   const client = callerAddress(); // '203.0.113.7'
 *   // count the post against `client` in the database, refuse it past the limit
 * }
 */
export function callerAddress(): string {
  const address = current.getStore();
  if (address === undefined) throw new Error('callerAddress() can only be called while a server action runs');
  return address;
}
