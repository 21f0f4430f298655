/**
 * The app's `middleware.ts`, at the root of its app directory: one function that runs before every
 * document, page-data request, server action and route handler (never before the build's files
 * or `public/`), as Next.js's middleware does.
 *
 * ```ts
 * export const paths = ['/me', '/settings'];
 * export function middleware(request: Request, { cookies, headers }: MiddlewareContext) {
 *   if (!cookies.get('session', { signed: true })) return Response.redirect(…, 307);
 *   headers.set('x-robots-tag', 'noindex');
 * }
 * ```
 *
 * - Returning a `Response` answers the request with it; returning nothing goes on, and what was
 *   set on `headers` is added to the final answer (`cookies` set go out with it too).
 * - `paths`, if exported, limits it to those path prefixes, each a whole segment: `/me` covers
 *   `/me` and `/me/likes`, not `/media`. Paths are compared as the router reads them (decoded,
 *   without empty segments), and the middleware's `request.url` carries that canonical path: a
 *   page asked for as `/%6De` or `//me` is `/me` to both, so neither check can be stepped around.
 * - A redirect (a 3xx `Response` with `Location`, or a thrown `redirect()`) has its target checked
 *   as `redirect()`'s are. A soft navigation follows it as a soft navigation, and a server action
 *   called from a script gets it as the action's redirect, as when a loader or action redirects.
 * - A throw is a 500 with a digest, logged and reported, never a hang.
 */
import type { Request, RequestHandler, Response } from 'express';
import { ACTION_HEADER, ACTION_PATH, type ActionAnswer } from '../../shared/actions.js';
import { decodePathname } from '../../shared/match-route.js';
import { PAGE_DATA_PARAM } from '../../shared/page-data.js';
import { checkRedirectTarget } from '../../shared/redirect-target.js';
import { isRedirect } from '../../shared/router-signals.js';
import { ownOrigin } from '../actions/action-guard.js';
import {
  neverStore,
  sendErrorPage,
  sendRedirectTo,
  sendRefusedRedirect,
  sendServerError,
} from '../http/answers.js';
import { digestOf } from '../http/digest.js';
import { canonicalPathname, parseRequestTarget } from '../http/request-url.js';
import { redirectOf, sendWebResponse, toWebRequest } from '../http/web-response.js';
import type { ResolvedOptions } from '../options.js';
import { sendRedirectData } from '../render/page-data-answer.js';
import type { RouteRuntime } from '../render/route-runtime.js';
import { cookies, isReservedHeader, setHeader, type Cookies } from './request-api.js';

export interface MiddlewareContext {
  /** The request's cookies; what is set here goes out with the answer, whoever makes it. */
  cookies: Cookies;
  /** Headers added to the final answer when the middleware lets the request go on. */
  headers: Headers;
}

export type Middleware = (
  request: globalThis.Request,
  context: MiddlewareContext,
) => globalThis.Response | void | undefined | Promise<globalThis.Response | void | undefined>;

/** Methods `new Request()` refuses. Node hands them over in capitals, as it does every method. */
const UNREQUESTABLE_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** Which answer a request expects, for a redirect or an error to take its form. */
type Expects = 'document' | 'page-data' | 'action-call';

export function runMiddleware(runtime: RouteRuntime, file: string, options: ResolvedOptions): RequestHandler {
  return async (req, res, next) => {
    const url = parseRequestTarget(req.originalUrl);
    // A target that is not a path is refused further on, with its own 400; a method a Web
    // `Request` cannot carry (CONNECT, TRACE, TRACK) is no page's or handler's: a 405 further on.
    if (!url || UNREQUESTABLE_METHODS.has(req.method)) return next();
    const expects: Expects = url.searchParams.has(PAGE_DATA_PARAM)
      ? 'page-data'
      : url.pathname.startsWith(ACTION_PATH) && req.headers[ACTION_HEADER] !== undefined
        ? 'action-call'
        : 'document';
    for (const name of [...url.searchParams.keys()])
      if (name.startsWith('_sy')) url.searchParams.delete(name);

    let answer: globalThis.Response | void | undefined;
    try {
      const module = await runtime.load(file);
      const { middleware, paths } = module as { middleware?: unknown; paths?: unknown };
      if (typeof middleware !== 'function')
        throw new TypeError(`${file} must export a function named "middleware"`);
      // Malformed percent-encoding: the router refuses the request, but the middleware still runs.
      const segments = decodePathname(url.pathname);
      if (segments && !coversPath(paths, segments, file)) return next();
      const headers = new Headers();
      const path = segments ? canonicalPathname(url.pathname, segments) : url.pathname;
      const request = toWebRequest(req, { pathname: path, search: url.search }, originOf(req));
      answer = await options.tracer.span('middleware', file, () =>
        (middleware as Middleware)(request, { cookies: cookies(), headers }),
      );
      if (answer !== undefined && !(answer instanceof globalThis.Response)) {
        throw new TypeError(`${file}: middleware must return a Response or nothing, not ${describe(answer)}`);
      }
      // Checked like setHeader's: a reserved or malformed header is the app's error, here.
      headers.forEach((value, name) => setHeader(name, value));
    } catch (error) {
      if (isRedirect(error)) return redirect(req, res, expects, error.location, error.status);
      return fail(req, res, expects, file, error, options);
    }
    if (answer === undefined) return next();
    const target = redirectOf(answer);
    if (target) {
      // Its own headers go with it (a cookie, `x-robots-tag`), not its body's framing; and a
      // redirect is never stored, whatever its `cache-control` says.
      for (const [name, value] of answer.headers) {
        if (name === 'set-cookie') res.appendHeader('set-cookie', value);
        else if (name !== 'location' && !isReservedHeader(name)) setHeader(name, value);
      }
      return redirect(req, res, expects, target.location, target.status);
    }
    try {
      await sendWebResponse(req, res, answer);
    } catch (error) {
      // Its body failed: before the first byte the answer is the error page, after it cut short.
      fail(req, res, expects, file, error, options);
    }
  };

  function originOf(req: Request): string {
    return ownOrigin(req, options.actionOrigins.trustProxy) ?? 'http://localhost';
  }

  /**
   * A redirect in the form the request expects, to a target `redirect()` would accept. A URL on
   * this site's own origin (`Response.redirect` takes only absolute ones) is made a path first.
   */
  function redirect(req: Request, res: Response, expects: Expects, to: string, status: number): void {
    const own = URL.canParse(to) ? new URL(to) : undefined;
    const target = own?.origin === originOf(req) ? own.pathname + own.search + own.hash : to;
    const location = checkRedirectTarget(target, options.allowedRedirectOrigins);
    if (location === null) {
      options.logger.error(`[switchyard] middleware: refused redirect target ${JSON.stringify(to)}`);
      return sendRefusedRedirect(res);
    }
    neverStore(res);
    const kind = status === 301 || status === 308 ? 308 : 307;
    if (expects === 'page-data')
      return sendRedirectData(res, options.buildId, req.originalUrl, location, kind);
    if (expects === 'action-call') {
      const body: ActionAnswer = { signal: { kind: 'redirect', location, status: kind }, revalidated: [] };
      return void res.status(200).json(body);
    }
    // A form's post is followed with a GET, as after an action.
    const code = req.method === 'GET' || req.method === 'HEAD' ? status : 303;
    sendRedirectTo(res, code, location);
  }
}

function fail(
  req: Request,
  res: Response,
  expects: Expects,
  file: string,
  error: unknown,
  options: ResolvedOptions,
) {
  const digest = digestOf(error);
  options.logger.error(`[switchyard] ${req.method} ${req.path}: ${file} failed, digest ${digest}`, error);
  options.reporter.report(error, { route: null, digest, source: 'middleware' });
  if (res.headersSent) return void res.destroy();
  if (expects === 'document')
    return sendErrorPage(res, digest, options.mode === 'development' ? error : undefined);
  sendServerError(res, digest);
}

/**
 * Whether the middleware runs for a path of these (decoded) segments: always without `paths`,
 * else when one of them is a prefix of whole segments, compared decoded on both sides.
 */
function coversPath(paths: unknown, segments: readonly string[], file: string): boolean {
  if (paths === undefined) return true;
  const prefixes = Array.isArray(paths)
    ? paths.map((p) => (typeof p === 'string' && p.startsWith('/') ? decodePathname(p) : undefined))
    : [];
  if (!Array.isArray(paths) || prefixes.some((p) => p === undefined)) {
    throw new TypeError(`${file}: paths must be an array of path prefixes, each starting with "/"`);
  }
  return prefixes.some((prefix) => prefix!.every((segment, i) => segments[i] === segment));
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'no class'})`;
  return `a ${typeof value}`;
}
