/**
 * Pages that are someone's: a signed-out visitor of /me is sent to sign in first, and comes back
 * after. A soft navigation to /me follows the redirect softly, as a loader's redirect.
 */
import type { MiddlewareContext } from 'switchyard-react/server';
import { signInHref } from '../lib/next-path';
import { SESSION_COOKIE } from '../lib/session.server';

export const paths = ['/me'];

export function middleware(request: Request, { cookies }: MiddlewareContext): Response | undefined {
  if (cookies.get(SESSION_COOKIE, { signed: true }) !== undefined) return undefined;
  const url = new URL(request.url);
  return Response.redirect(new URL(signInHref(url.pathname + url.search), url), 307);
}
