/**
 * What a request says about where it was sent, read strictly. The target is read as a path,
 * never as a URL: `//evil.example/x` and `/\evil.example/x` are paths on this site whose first
 * segment is `evil.example`. `Host` must be given once and be one host and an optional port, as
 * WHATWG URL parsing reads them (the loader's `request` is built that way); anything else is the
 * client's error, a 400.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { sendText } from './answers.js';

/**
 * What ends a URL's host or hides part of it: a path, query or fragment, user info, and the
 * white space and controls a URL parser drops. With none of them, a host that parses after
 * `http://` is the host of any URL the server builds from it.
 */
const NOT_IN_HOST = /[\s\p{Cc}/\\?#@]/u;

/** The last Host found good: nearly every request repeats it, and parsing one costs ~0.5 µs. */
let lastHost: string | undefined;

/**
 * Whether `value` is one host (a name, an IPv4 address or a bracketed IPv6 one) and an optional
 * port, by the same rules as `new URL`: `1.2.3.4.5`, `[1:2:3]` and `a.example:99999` are not.
 * @example isHost('bücher.example:8080') // true
 */
export function isHost(value: string): boolean {
  if (value === lastHost) return true;
  if (value === '' || NOT_IN_HOST.test(value) || !URL.canParse(`http://${value}`)) return false;
  lastHost = value;
  return true;
}

/**
 * What the server reads of a request's target: its path and its query, as `new URL` reads them.
 * Of the query's parameters only what reading them and taking the framework's own out need:
 * nothing can add one, which a plain path's `search` (always empty) would not show.
 */
export interface RequestTarget {
  readonly pathname: string;
  readonly search: string;
  readonly searchParams: Pick<URLSearchParams, 'get' | 'has' | 'keys' | 'delete' | typeof Symbol.iterator>;
}

/** Any origin will do: only the path and the search of the result are read. */
const BASE = 'http://switchyard.invalid';

/**
 * A path `new URL` gives back as it is: segments of letters, digits and the punctuation a path
 * keeps unescaped, none of them `.` or `..`, and no query. Anything else (a `%`, a `\`, a dot
 * segment, a query) is parsed by `new URL`.
 */
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[\w\-.~!$&'()*+,;=:@]*)+$/;

/** A plain path's target: no query, so its search is empty and its parameters are none. */
class PlainTarget implements RequestTarget {
  readonly search = '';
  #searchParams: URLSearchParams | undefined;
  constructor(readonly pathname: string) {}
  get searchParams(): URLSearchParams {
    return (this.#searchParams ??= new URLSearchParams());
  }
}

/**
 * The target of an origin-form request (`/path?search`) as a URL on a placeholder origin reads
 * it, or `null` for any other form (`*`, an absolute URL), which this server does not serve.
 * Most documents ask for a plain path, which is taken as it is: building a URL costs ~15 µs.
 */
export function parseRequestTarget(target: string): RequestTarget | null {
  if (PLAIN_PATH.test(target)) return new PlainTarget(target);
  if (!target.startsWith('/')) return null;
  try {
    return new URL(BASE + target);
  } catch {
    return null;
  }
}

/** What a path segment may hold unescaped besides what `encodeURIComponent` leaves: `$&+,;=:@`. */
const SEGMENT_PUNCTUATION = /%(?:24|26|2B|2C|3B|3D|3A|40)/g;

/**
 * The path the router serves for `pathname`, whose decoded segments are `segments`: empty segments
 * dropped (`//me` is `/me`), each segment escaped only where it must be (`/%6De` is `/me`, while
 * `%2F` stays: it is part of its segment). A trailing slash is kept. Two requests for one page
 * have one canonical path, so a check on it cannot be stepped around by spelling the path
 * another way.
 */
export function canonicalPathname(pathname: string, segments: readonly string[]): string {
  const path = segments
    .map((segment) => '/' + encodeURIComponent(segment).replace(SEGMENT_PUNCTUATION, decodeURIComponent))
    .join('');
  return path === '' ? '/' : pathname.endsWith('/') ? `${path}/` : path;
}

/** Why the request's `Host` cannot be used, or `null` when it can. */
export function hostProblem(rawHeaders: readonly string[]): string | null {
  let host: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    // The length first: lower-casing every header name cost more than the rest of the check.
    const name = rawHeaders[i]!;
    if (name.length !== 4 || name.toLowerCase() !== 'host') continue;
    if (host !== undefined) return 'the request has more than one Host header.';
    host = rawHeaders[i + 1]!;
  }
  if (host !== undefined && !isHost(host)) {
    return 'the Host header is not a host name or address with an optional port.';
  }
  return null;
}

/** Answers 400 for a malformed or repeated `Host`, before any handler builds a URL from it. */
export const checkHost: RequestHandler = (req, res, next) => {
  const problem = hostProblem(req.rawHeaders);
  if (problem === null) return next();
  sendText(res, 400, problem);
};

/**
 * How many proxies in front of the server are trusted, nearest first, as Express's `trust proxy`
 * counts them: `0` (or `false`) none, so only the socket counts; `N` the N nearest (a CDN and a
 * load balancer are 2); `true` is 1. Any N reads `X-Forwarded-Host` and `-Proto`; N says which
 * `X-Forwarded-For` entry is the client.
 */
export type TrustProxy = boolean | number;

/**
 * Who sent the request, for per-client limits: the socket's peer, or behind N trusted proxies the
 * N-th `X-Forwarded-For` entry from the end. Each proxy appends the address it was sent from, so
 * the nearest wrote the last entry, and the N-th from the end is what the furthest trusted one
 * saw: the client. Entries before it are the client's to forge. A list shorter than N (a
 * request that came in past some of the proxies) gives its first entry, the furthest one known.
 * A port some proxies write after the address is dropped (`withoutPort`).
 */
export function clientAddress(req: IncomingMessage, trustProxy: TrustProxy): string {
  const hops = Number(trustProxy);
  const forwarded = hops > 0 ? req.headers['x-forwarded-for'] : undefined;
  const entries = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)?.split(',');
  const client = entries?.[Math.max(entries.length - hops, 0)]?.trim();
  return (client && withoutPort(client)) || req.socket.remoteAddress || 'unknown';
}

/**
 * The address of an `X-Forwarded-For` entry. Some proxies (Azure's gateways among them) write the
 * client's source port too, which changes with every connection: kept, it would make one client
 * a new one per connection, and no per-client limit would ever bite. `203.0.113.7:51234` gives
 * `203.0.113.7`, `[2001:db8::1]:443` and `[2001:db8::1]` give `2001:db8::1`; a bare IPv6
 * address (more than one colon) has no port to drop.
 */
export function withoutPort(entry: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const hostAndPort = /^([^:]+):\d*$/.exec(entry);
  return hostAndPort ? hostAndPort[1]! : entry;
}

/**
 * The scheme the client used: `https` over a TLS socket, or behind a trusted proxy the first
 * `X-Forwarded-Proto` entry (the one the client sent the outermost proxy). Without `trustProxy`
 * the header is anyone's to send, so only the socket counts.
 */
export function requestScheme(
  req: { headers: IncomingMessage['headers']; socket?: object | undefined },
  trustProxy: TrustProxy,
): string {
  const forwarded = trustProxy ? firstListed(req.headers['x-forwarded-proto']) : undefined;
  const socket = req.socket;
  const tls = socket !== undefined && 'encrypted' in socket && socket.encrypted === true;
  return forwarded?.toLowerCase() ?? (tls ? 'https' : 'http');
}

/** Each proxy appends what it was sent; the first entry is what the client sent the outermost one. */
export function firstListed(value: string | string[] | undefined): string | undefined {
  const first = (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();
  return first === '' ? undefined : first;
}
