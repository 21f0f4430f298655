/**
 * The cookies the server set, sent back as a browser sends them on one site: each only to the
 * paths under its `Path`, and only until it expires on the test's clock. A cookie is named by its
 * name and path; every request goes to one origin, so domains are not told apart.
 */

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
        const cookie = parseSetCookie(line, path, now());
        if (!cookie) continue;
        const key = `${cookie.name};${cookie.path}`;
        // A cookie set to expire now or before is how a server deletes it.
        if (cookie.expiresAt <= now()) jar.delete(key);
        else jar.set(key, cookie);
      }
    },
  };
}

function parseSetCookie(line: string, requestPath: string, now: number): Cookie | undefined {
  const [pair = '', ...attributes] = line.split(';');
  const at = pair.indexOf('=');
  if (at <= 0) return undefined;
  let path: string | undefined;
  let maxAge: number | undefined;
  let expires: number | undefined;
  for (const attribute of attributes) {
    const eq = attribute.indexOf('=');
    const key = (eq < 0 ? attribute : attribute.slice(0, eq)).trim().toLowerCase();
    const value = eq < 0 ? '' : attribute.slice(eq + 1).trim();
    if (key === 'path' && value.startsWith('/')) path = value;
    else if (key === 'max-age' && /^-?\d+$/.test(value)) maxAge = Number(value);
    else if (key === 'expires' && !Number.isNaN(Date.parse(value))) expires = Date.parse(value);
  }
  return {
    name: pair.slice(0, at).trim(),
    value: pair.slice(at + 1).trim(),
    path: path ?? defaultPath(requestPath),
    // Max-Age wins over Expires, and counts from the test's now.
    expiresAt: maxAge !== undefined ? now + maxAge * 1000 : (expires ?? Infinity),
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
