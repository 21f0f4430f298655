/**
 * Headers every response carries, and the two content security policies: a rendered page's allows
 * scripts from our origin and the inline scripts React writes with this request's nonce; every
 * other answer's allows nothing but inline styles.
 */
import type { RequestHandler } from 'express';

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

/**
 * Every answer runs no script unless the code that makes it says otherwise: a rendered page
 * replaces this policy with its nonce's, an error page sent instead keeps it, and page data
 * (JSON, which no browser runs as a page) drops it rather than add its bytes to every prefetch.
 */
export const noScriptByDefault: RequestHandler = (_req, res, next) => {
  res.setHeader('content-security-policy', NO_SCRIPT_CSP);
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
