/**
 * Headers every response carries, and the two content security policies: a rendered page's allows
 * scripts from our origin and the inline scripts React writes with this request's nonce; every
 * other answer's allows nothing but inline styles.
 */
import type { RequestHandler, Response } from 'express';

const NONCE = '\0';
/** A page's policy with a placeholder for its nonce, split there once: each page joins three strings. */
const [BEFORE_NONCE, AFTER_NONCE] = [
  "default-src 'self'",
  `script-src 'self' 'nonce-${NONCE}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
]
  .join('; ')
  .split(NONCE) as [string, string];

export function contentSecurityPolicy(nonce: string): string {
  return BEFORE_NONCE + nonce + AFTER_NONCE;
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

/**
 * What only a document reads: how it may be framed, whose window it shares, what its features
 * and its own requests' referrers may be, and what may run in it.
 */
const DOCUMENT_ONLY: Record<string, string> = {
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

const DOCUMENT_HEADERS = Object.entries(DOCUMENT_ONLY);

export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('x-content-type-options', 'nosniff');
  for (const [name, value] of DOCUMENT_HEADERS) res.setHeader(name, value);
  next();
};

/**
 * Page data is JSON a script fetches: no browser frames it, runs it or opens it as a window, so
 * the headers only a document reads would add some 300 bytes to every prefetch for nothing.
 * `nosniff` stays: it keeps the JSON from being read as a script or a style.
 */
export function dropDocumentHeaders(res: Response): void {
  for (const name of [...Object.keys(DOCUMENT_ONLY), 'content-security-policy']) res.removeHeader(name);
}
