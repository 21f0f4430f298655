/**
 * What app code reads of the request and adds to its answer, from anywhere the request is being
 * answered (middleware, a loader, a server action, a route handler): `cookies()`, `headers()`,
 * `setStatus()` and `setHeader()`.
 */
import { STATUS_CODES } from 'node:http';
import type { Cookie, CookieOptions, DeleteCookieOptions } from './cookies.js';
import { webHeaders } from '../http/web-response.js';
import { currentScope, stillOpen } from './request-scope.js';

export type { Cookie, CookieOptions, DeleteCookieOptions } from './cookies.js';

export interface Cookies {
  /** The cookie's value; with `signed`, only if its signature holds (else `undefined`). */
  get(name: string, options?: { signed?: boolean }): string | undefined;
  getAll(): Cookie[];
  has(name: string): boolean;
  /** Sets it on the answer (`HttpOnly`, `SameSite=Lax`, `Path=/`, `Secure` over https by default). */
  set(name: string, value: string, options?: CookieOptions): void;
  /**
   * Expires it on the answer. Give the `path`, `domain`, `secure`, `sameSite` and `partitioned` it
   * was set with, if not the defaults: a partitioned cookie, above all, is only removed by a
   * partitioned line.
   */
  delete(name: string, options?: DeleteCookieOptions): void;
}

/**
 * The request's cookies, and the ones this answer sets.
 *
 * @example
 * const user = cookies().get('session', { signed: true }); // undefined if absent or tampered with
 * cookies().set('session', 'ada', { signed: true, maxAge: 60 * 60 * 24 * 30 });
 */
export function cookies(): Cookies {
  const scope = currentScope('cookies()');
  const jar = scope.cookies;
  return {
    get: (name, options) => jar.get(name, options),
    getAll: () => jar.getAll(),
    has: (name) => jar.has(name),
    set(name, value, options) {
      if (stillOpen(scope, `cookies().set(${JSON.stringify(name)})`)) jar.set(name, value, options);
    },
    delete(name, options) {
      if (stillOpen(scope, `cookies().delete(${JSON.stringify(name)})`)) jar.delete(name, options);
    },
  };
}

/** Mutating methods of the request's headers, which are read-only. */
const MUTATORS = ['append', 'delete', 'set'] as const;

/**
 * The request's headers, read-only (a `Headers`): `headers().get('accept-language')`.
 * To add a header to the answer, use `setHeader`.
 */
export function headers(): Headers {
  const scope = currentScope('headers()');
  const read = webHeaders(scope.requestHeaders);
  for (const method of MUTATORS) {
    Object.defineProperty(read, method, {
      value: () => {
        throw new TypeError(
          `headers() are the request's and cannot be changed; use setHeader() for the answer's`,
        );
      },
    });
  }
  return read;
}

/**
 * The status the page is answered with, from its loader: `setStatus(201)`, `setStatus(410)`. A
 * page that fails or is not found keeps its 500 or 404. Applies to the document and to page data,
 * which always have a body, so a status that forbids one (204, 205) is refused.
 */
export function setStatus(code: number): void {
  if (!Number.isInteger(code) || code < 200 || code > 599 || !STATUS_CODES[code]) {
    throw new RangeError(`setStatus(${String(code)}): a status is a known HTTP code from 200 to 599`);
  }
  if (code >= 300 && code < 400) {
    throw new RangeError(`setStatus(${code}): to redirect, throw redirect(url) so the target is checked`);
  }
  // HTTP forbids a body with these, and Node drops it: the document would be blank (the browser
  // stays on the old page) and the page data unreadable.
  if (code === 204 || code === 205) {
    throw new RangeError(
      `setStatus(${code}): a page always has a body, which ${code} forbids; to answer with no content, use a route handler`,
    );
  }
  const scope = currentScope('setStatus()');
  if (stillOpen(scope, `setStatus(${code})`)) scope.status = code;
}

/** Headers the framework sets itself: how the body is framed, and cookies (use `cookies()`). */
const RESERVED_HEADERS = new Set([
  'set-cookie',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'content-type',
]);

/** Whether a header is one `setHeader` refuses: the body's framing, or a cookie. */
export function isReservedHeader(lowerCaseName: string): boolean {
  return RESERVED_HEADERS.has(lowerCaseName);
}

/**
 * Adds a header to the answer, over the framework's own: `setHeader('cache-control', 'public,
 * max-age=60')`. Cookies go through `cookies()`; the body's framing headers are the framework's.
 */
export function setHeader(name: string, value: string): void {
  const lower = name.toLowerCase();
  if (RESERVED_HEADERS.has(lower)) {
    throw new TypeError(
      lower === 'set-cookie'
        ? 'setHeader("set-cookie") is not allowed: use cookies().set()'
        : `setHeader(${JSON.stringify(name)}) is not allowed: the framework sets how the body is framed`,
    );
  }
  const scope = currentScope('setHeader()');
  // Headers validates the name and value (no line breaks): a bad one is a TypeError here, not a broken answer.
  if (stillOpen(scope, `setHeader(${JSON.stringify(name)})`)) scope.headers.set(lower, value);
}
