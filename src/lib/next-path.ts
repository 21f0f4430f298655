/**
 * Where to go after signing in: `?next=` as given, if it is a path on this site; the feed
 * otherwise. The framework refuses a redirect off the site anyway (a 400); checking here turns
 * a bad link into a normal sign-in instead of an error page.
 */
export function nextPath(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.includes('\\'))
    return '/';
  // A path whose parse lands on another origin (tabs and newlines are dropped by URL parsing) is not one.
  const url = new URL(next, 'http://here.invalid');
  return url.origin === 'http://here.invalid' ? url.pathname + url.search + url.hash : '/';
}

/** The sign-in page's URL that comes back to `path`. */
export function signInHref(path: string): string {
  return path === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(path)}`;
}
