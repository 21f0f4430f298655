/**
 * Which redirect targets may be followed: a path on this origin, or a URL on an origin
 * the app allows. Everything else is refused, on the server and in the browser alike, because a
 * target often comes from the URL (`?next=`) and an open redirect is a phishing tool.
 * The answer is the target to use, or `null`.
 */

/** What a refused target is answered with (a 400): the target came from the client. */
export const REFUSED_REDIRECT_MESSAGE = 'Bad Request: the redirect target is not a path on this site.';

/** C0 controls, space, DEL: browsers strip or skip some of them, which hides a scheme or a host. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/;
/** A second slash or a backslash after the first makes a path into a host (`//evil`, `/\evil`). */
const HOST_LIKE = /^[/\\][/\\]/;
/** A decoded target is checked as the browser may see it; two rounds catch `%252F`. */
const DECODE_ROUNDS = 2;

export function checkRedirectTarget(target: string, allowedOrigins: readonly string[] = []): string | null {
  if (typeof target !== 'string' || target === '' || CONTROL_OR_SPACE.test(target)) return null;
  if (target.startsWith('/')) return isSafePath(target) ? target : null;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return null; // relative paths without a leading slash are ambiguous: refused
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  return allowedOrigins.includes(url.origin) ? url.href : null;
}

function isSafePath(path: string): boolean {
  if (path.includes('\\')) return false;
  let decoded = path;
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      return false; // a malformed escape is no path we would serve either
    }
    if (HOST_LIKE.test(decoded) || CONTROL_OR_SPACE.test(decoded) || decoded.includes('\\')) return false;
    // Dot segments are removed when a path is resolved: `/.//evil` becomes `//evil`, which any
    // later `new URL(path, origin)` (the client router's) reads as a host.
    if (!staysPath(decoded)) return false;
  }
  return staysPath(path) && !HOST_LIKE.test(path);
}

/** Resolved against any origin, the path stays on it, and its resolved form is no host either. */
function staysPath(path: string): boolean {
  const base = 'http://switchyard.invalid';
  let resolved: URL;
  try {
    resolved = new URL(path, base);
  } catch {
    return false;
  }
  return resolved.origin === base && !HOST_LIKE.test(resolved.pathname);
}
