import type { Href } from 'switchyard-react';

const HERE = 'http://here.invalid';

/**
 * Where to go after signing in: `?next=` as given, if it is a path on this site; the feed
 * otherwise. The framework refuses a redirect off the site anyway (a 400); checking here turns
 * a bad link into a normal sign-in instead of an error page.
 */
export function nextPath(next: unknown): Href {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.includes('\\'))
    return '/';
  const url = new URL(next, HERE);
  const path = url.pathname + url.search + url.hash;
  return isSitePath(path, url) ? path : '/';
}

/**
 * Whether a path read from the request stays on this site, where it may be linked to. Nothing
 * at compile time can know that such a path names a route: this run-time check is what vouches
 * for it, and a path no route answers gets the not-found page, as a stale link would.
 */
function isSitePath(path: string, parsed: URL): path is Href {
  // A path whose parse lands on another origin (tabs and newlines are dropped by URL parsing) is not one.
  return parsed.origin === HERE && path.startsWith('/');
}

/** The sign-in page's URL that comes back to `path`. */
export function signInHref(path: string): Href {
  return path === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(path)}`;
}
