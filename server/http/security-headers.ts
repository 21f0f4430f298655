/**
 * Headers every response carries, and the two content security policies: a rendered page's allows
 * scripts from our origin and the inline scripts React writes with this request's nonce; every
 * other answer's allows nothing but inline styles.
 */
import type { RequestHandler } from 'express';
import { PAGE_DATA_PARAM } from '../../shared/page-data.js';

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * For a page with no script and only inline styles (the server's own error pages): nothing may
 * load or run, and the page can be neither framed nor a form's way elsewhere.
 */
export const NO_SCRIPT_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** `?_sy=` or `&_sy=`: a page-data request, answered with JSON. */
const PAGE_DATA_QUERY = new RegExp(`[?&]${PAGE_DATA_PARAM}=`);

/**
 * Every answer runs no script unless the code that makes it says otherwise: a rendered page
 * replaces this policy with its nonce's, and an error page sent instead keeps it. Page data is
 * JSON, which no browser runs as a page (`nosniff`): a policy there would only add its ~130
 * bytes to every prefetch, which the prefetch byte budget counts.
 */
export const noScriptByDefault: RequestHandler = (req, res, next) => {
  if (!PAGE_DATA_QUERY.test(req.url)) res.setHeader('content-security-policy', NO_SCRIPT_CSP);
  next();
};

export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('referrer-policy', 'strict-origin-when-cross-origin');
  res.setHeader('cross-origin-opener-policy', 'same-origin');
  res.setHeader('permissions-policy', 'camera=(), microphone=(), geolocation=()');
  next();
};
