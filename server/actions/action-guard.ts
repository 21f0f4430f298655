/**
 * The cross-site check for server actions. A request passes only if the browser says
 * it came from the origin it was sent to, or from an origin the app allows. Origins are compared
 * parsed (scheme, host, port with default ports dropped), never as substrings.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { firstListed, isHost, requestScheme, type TrustProxy } from '../http/request-url.js';

export interface ActionGuardOptions {
  /**
   * The proxies in front of the server that are trusted (`true` is 1): with any, read
   * `X-Forwarded-Host` and `X-Forwarded-Proto`, only behind proxies that set them, replacing
   * whatever the client sent; their number says which `X-Forwarded-For` entry is the client.
   */
  trustProxy: TrustProxy;
  /** Other origins whose pages may call actions, e.g. `https://admin.example.com`. */
  allowedOrigins: readonly string[];
  /**
   * The host names this app is served under (`app.example.com`); empty allows any. With a list,
   * a page on a name that was made to resolve to this server (DNS rebinding) is refused, though
   * its Origin matches its Host.
   */
  allowedHosts?: readonly string[];
}

/** What the check reads of a request; an Express `Request` fits. */
export interface ActionRequestHead {
  headers: IncomingHttpHeaders;
  /** A TLS socket has `encrypted: true`, which makes the request's own scheme `https`. */
  socket?: object | undefined;
}

export interface ActionRefusal {
  status: 403;
  message: string;
}

/**
 * `null` when the request may run an action, else the refusal to send.
 *
 * @example
 * const refusal = checkActionOrigin(req, { trustProxy: false, allowedOrigins: [] });
 * if (refusal) return sendText(res, refusal.status, refusal.message); // 403 Forbidden: …
 */
export function checkActionOrigin(req: ActionRequestHead, options: ActionGuardOptions): ActionRefusal | null {
  // Browsers set Sec-Fetch-Site themselves; no page can forge it, so this answer is final.
  if (header(req.headers['sec-fetch-site']) === 'cross-site') return refuse('cross-site request');
  const own = ownOrigin(req, options.trustProxy);
  const hosts = options.allowedHosts ?? [];
  if (hosts.length > 0 && (own === undefined || !hosts.includes(new URL(own).hostname))) {
    return refuse('this host name is not one the app is served under');
  }
  const isAllowed = (origin: string) =>
    origin === own || options.allowedOrigins.some((allowed) => parseOrigin(allowed) === origin);

  const origin = header(req.headers.origin);
  if (origin !== undefined) {
    // `null` is what sandboxed frames, data: URLs and some redirects send: nobody we know.
    if (origin.trim() === 'null') return refuse('Origin null is not allowed');
    const parsed = parseOrigin(origin);
    return parsed !== undefined && isAllowed(parsed) ? null : refuse(`Origin ${origin} is not allowed`);
  }
  // Some browsers leave Origin off same-origin POSTs; their Referer still names the page.
  const referer = header(req.headers.referer);
  if (referer === undefined) return refuse('the request has neither Origin nor Referer');
  const parsed = parseOrigin(referer);
  return parsed !== undefined && isAllowed(parsed) ? null : refuse('Referer is from another origin');
}

/**
 * The serialized origin of an http(s) URL, or undefined. `https://a.example:443/x` and
 * `https://A.example` both give `https://a.example`.
 */
export function parseOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}

/**
 * The origin the request was addressed to. Without `trustProxy` only `Host` and the socket
 * count: anyone can send `X-Forwarded-Host`, so reading it then would let a forged header vouch
 * for a forged Origin. With it, `X-Forwarded-Host` wins: a proxy may send `Host` without the
 * port the browser used (nginx's `$host`).
 */
export function ownOrigin(req: ActionRequestHead, trustProxy: TrustProxy): string | undefined {
  const forwardedHost = trustProxy ? firstListed(req.headers['x-forwarded-host']) : undefined;
  const host = forwardedHost ?? header(req.headers.host);
  const scheme = requestScheme(req, trustProxy);
  // A host with a path, user info or spaces in it would parse as some other URL.
  if (host === undefined || !isHost(host) || (scheme !== 'http' && scheme !== 'https')) return undefined;
  return parseOrigin(`${scheme}://${host}`);
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function refuse(message: string): ActionRefusal {
  return { status: 403, message };
}
