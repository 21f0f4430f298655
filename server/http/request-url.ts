/**
 * What a request says about where it was sent, read strictly. The target is read as a path,
 * never as a URL: `//evil.example/x` and `/\evil.example/x` are paths on this site whose first
 * segment is `evil.example`. `Host` must be one well-formed host (a name or a bracketed IPv6
 * address, and a port), given once; anything else is the client's error, a 400.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';

/** A host name or bracketed IPv6 address, and an optional port: nothing that could add a path. */
export const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** Any origin will do: only the path and the search of the result are read. */
const BASE = 'http://switchyard.invalid';

/**
 * The target of an origin-form request (`/path?search`) as a URL on a placeholder origin, or
 * `null` for any other form (`*`, an absolute URL), which this server does not serve.
 */
export function parseRequestTarget(target: string): URL | null {
  if (!target.startsWith('/')) return null;
  try {
    return new URL(BASE + target);
  } catch {
    return null;
  }
}

/** Why the request's `Host` cannot be used, or `null` when it can. */
export function hostProblem(rawHeaders: readonly string[]): string | null {
  const hosts = rawHeaders.filter((_, i) => i % 2 === 0 && rawHeaders[i]!.toLowerCase() === 'host');
  if (hosts.length > 1) return 'the request has more than one Host header.';
  const host =
    rawHeaders[rawHeaders.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === 'host') + 1];
  if (host !== undefined && !HOST.test(host)) return 'the Host header is not a host name.';
  return null;
}

/** Answers 400 for a malformed or repeated `Host`, before any handler builds a URL from it. */
export const checkHost: RequestHandler = (req, res, next) => {
  const problem = hostProblem(req.rawHeaders);
  if (problem === null) return next();
  res.status(400).setHeader('cache-control', 'no-store').type('text/plain').send(`Bad Request: ${problem}`);
};

/**
 * Who sent the request, for per-client limits: the socket's peer, or behind a trusted proxy the
 * last `X-Forwarded-For` entry (the one that proxy added; earlier ones are the client's to forge).
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? req.headers['x-forwarded-for'] : undefined;
  const last = (Array.isArray(forwarded) ? forwarded.join(',') : forwarded)?.split(',').at(-1)?.trim();
  return last || req.socket.remoteAddress || 'unknown';
}

/**
 * The scheme the client used: `https` over a TLS socket, or behind a trusted proxy the first
 * `X-Forwarded-Proto` entry (the one the client sent the outermost proxy). Without `trustProxy`
 * the header is anyone's to send, so only the socket counts.
 */
export function requestScheme(
  req: { headers: IncomingMessage['headers']; socket?: object | undefined },
  trustProxy: boolean,
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
