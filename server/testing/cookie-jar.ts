/**
 * The cookies the server set, sent back as a browser sends them on one site: each only to the
 * paths under its `Path`, and only until it expires on the test's clock. A cookie is named by its
 * name and path; every request goes to one origin, so domains are not told apart.
 */
import { parseSetCookie } from 'cookie';

export interface CookieJar {
  /** The `Cookie` header of a request to `path`, or undefined when no cookie goes there. */
  header(path: string): string | undefined;
  /** Keeps the cookies `response` sets; `path` is the request's, which a cookie without `Path` takes. */
  store(response: Response, path: string): void;
}

interface Cookie {
  name: string;
  value: string;
  path: string;
  /** On the test's clock; `Infinity` for a cookie that lasts as long as the browser. */
  expiresAt: number;
}

export function createCookieJar(now: () => number): CookieJar {
  const jar = new Map<string, Cookie>();
  return {
    header(path) {
      const sent = [...jar.values()]
        .filter((cookie) => cookie.expiresAt > now() && pathMatches(path, cookie.path))
        // Longer paths first, as browsers order them.
        .sort((a, b) => b.path.length - a.path.length);
      return sent.length === 0 ? undefined : sent.map(({ name, value }) => `${name}=${value}`).join('; ');
    },
    store(response, path) {
      for (const line of response.headers.getSetCookie()) {
        const cookie = cookieOf(line, path, now());
        if (!cookie) continue;
        const key = `${cookie.name};${cookie.path}`;
        // A cookie set to expire now or before is how a server deletes it.
        if (cookie.expiresAt <= now()) jar.delete(key);
        else jar.set(key, cookie);
      }
    },
  };
}

/** Values go back as they came, as a browser sends them: not decoded. */
const AS_SENT = { decode: (value: string) => value };

function cookieOf(line: string, requestPath: string, now: number): Cookie | undefined {
  const { name, value, path, maxAge, expires } = parseSetCookie(line, AS_SENT);
  if (!name || value === undefined) return undefined;
  return {
    name,
    value,
    path: path?.startsWith('/') ? path : defaultPath(requestPath),
    // Max-Age wins over Expires, and counts from the test's now.
    expiresAt: maxAge !== undefined ? now + maxAge * 1000 : (expires?.getTime() ?? Infinity),
  };
}

/** A cookie set without `Path` goes to the request's directory: `/a/b` gives `/a`. */
function defaultPath(requestPath: string): string {
  const last = requestPath.lastIndexOf('/');
  return last <= 0 ? '/' : requestPath.slice(0, last);
}

/** `/admin` goes to `/admin` and `/admin/users`, never to `/administrator`. */
function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  return (
    requestPath.startsWith(cookiePath) && (cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/')
  );
}
