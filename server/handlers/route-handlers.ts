/**
 * Route handlers: a `route.ts` answers its URL, for any method, instead of a page. It exports a
 * function per method (`GET`, `POST`, …) that takes a Web `Request` and the route's params and
 * returns a Web `Response`. `HEAD` is `GET`'s answer without its body; `OPTIONS` is answered
 * with the methods there are unless the module exports its own; any other method not exported
 * is a 405 with `Allow`. `POST`, `PUT`, `PATCH` and `DELETE` from a page of another site are
 * refused as actions are, unless the module exports `allowCrossOrigin = true`. A page-data
 * request for the URL never runs the handler: the client is told to load it as a document.
 */
import type { Request, RequestHandler, Response } from 'express';
import { decodePathname, matchRoute, type Params, type RouteMatch } from '../../shared/match-route.js';
import { PAGE_DATA_PARAM, PREFETCH_PARAM, WHOLE_PARAM, type DocumentAnswer } from '../../shared/page-data.js';
import { checkRedirectTarget } from '../../shared/redirect-target.js';
import { walkTree, type RouteNode } from '../../shared/route-tree.js';
import { isNotFound, isRedirect } from '../../shared/router-signals.js';
import { checkActionOrigin, type ActionGuardOptions } from '../actions/action-guard.js';
import {
  neverStore,
  noStore,
  sendMethodNotAllowed,
  sendRefusedRedirect,
  sendRetryLater,
  sendServerError,
  sendText,
} from '../http/answers.js';
import { sendJson } from '../http/compression.js';
import { digestOf } from '../http/digest.js';
import { HttpError } from '../http/http-error.js';
import { parseRequestTarget, type RequestTarget, type TrustProxy } from '../http/request-url.js';
import { dropDocumentHeaders } from '../http/security-headers.js';
import { sendWebResponse } from '../http/web-response.js';
import { isRetryLater } from '../http/retry-later.js';
import type { ResolvedOptions } from '../options.js';
import type { RouteRuntime } from '../render/route-runtime.js';
import { toHandlerRequest } from './handler-request.js';

/** What a route handler gets besides the request. */
export interface RouteContext<P extends Params = Params> {
  /** The route's params, percent-decoded, as a page's loader gets them (catch-alls are arrays). */
  params: P;
}

/**
 * One method's handler, exported from a `route.ts` under the method's name.
 *
 * @example
 * // app/api/photos/[id]/route.ts
 * export const GET: RouteHandler<{ id: string }> = (request, { params }) =>
 *   Response.json({ id: params.id });
 */
export type RouteHandler<P extends Params = Params> = (
  request: globalThis.Request,
  context: RouteContext<P>,
) => globalThis.Response | Promise<globalThis.Response>;

/** The exports read as handlers, in the order `Allow` lists them. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type Method = (typeof METHODS)[number];
type Handlers = Partial<Record<Method, RouteHandler>>;
/** Methods a page of another site could use to change something for its visitor. */
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Express middleware: answers the URLs a `route.ts` matches, and passes every other on.
 * `undefined` for an app with no `route.ts`.
 */
export function createRouteHandlers(
  runtime: RouteRuntime,
  options: ResolvedOptions,
): RequestHandler | undefined {
  // An app without route handlers pays nothing for them: not even a layer of Express's router.
  if (!someNode(runtime.tree, (node) => node.files.route !== undefined)) return undefined;

  return async function handleRoute(req, res, next): Promise<void> {
    // A malformed target or path is the document handler's to refuse.
    const url = parseRequestTarget(req.originalUrl);
    const segments = url && decodePathname(url.pathname);
    const match = segments ? matchRoute(runtime.tree, segments) : undefined;
    const file = match?.branch.at(-1)!.files.route;
    if (!url || !match || file === undefined) return next();
    options.tracer.nameRequest(req.method, 'handler', () => match.pattern);

    if (url.searchParams.has(PAGE_DATA_PARAM) && (req.method === 'GET' || req.method === 'HEAD')) {
      return sendDocumentAnswer(res, url, options.buildId);
    }
    try {
      const module = await runtime.load(file);
      const handlers = handlersOf(module, file);
      const handler = handlers[req.method as Method] ?? (req.method === 'HEAD' ? handlers.GET : undefined);
      const allow = allowOf(handlers);
      if (!handler) {
        if (req.method !== 'OPTIONS')
          return sendMethodNotAllowed(res, allow, `this URL answers ${allow.join(', ')}.`);
        return void noStore(res).status(204).setHeader('allow', allow.join(', ')).end();
      }
      if (UNSAFE.has(req.method) && module.allowCrossOrigin !== true) {
        const refusal = crossSiteRefusal(req, options.actionOrigins);
        if (refusal) return sendText(res, 403, refusal);
      }
      const request = await readRequest(req, res, url, options.actionOrigins.trustProxy);
      if (!request) return;
      const response = await options.tracer.span('handler', file, () =>
        handler(request, { params: match.params }),
      );
      if (!(response instanceof globalThis.Response)) {
        throw new TypeError(
          `${file}: ${req.method} returned ${describe(response)}, not a Response; return one, such as Response.json(data)`,
        );
      }
      await sendWebResponse(req, res, response);
    } catch (error) {
      answerFailure(error, req, res, match, file);
    }
  };

  /**
   * What a handler threw (or the module's import, or the body's stream): a signal or a
   * `RetryLater` is answered as a page's loader's would be; anything else is a bug, logged with
   * the file and reported, and the client gets only its digest.
   */
  function answerFailure(error: unknown, req: Request, res: Response, match: RouteMatch, file: string): void {
    // The client went away: there is no one to answer, and what failed was likely its abort.
    if (res.destroyed && !res.headersSent) return;
    if (!res.headersSent) {
      if (isRetryLater(error)) return sendRetryLater(res, error);
      if (isNotFound(error)) return sendText(res, 404, 'nothing is at this URL.');
      if (isRedirect(error)) {
        const location = checkRedirectTarget(error.location, options.allowedRedirectOrigins);
        if (location === null) return sendRefusedRedirect(res);
        return void neverStore(res).status(error.status).location(location).end();
      }
    }
    const digest = digestOf(error);
    const path = req.originalUrl.split('?')[0];
    options.logger.error(`[switchyard] ${req.method} ${path} (${file}) failed, digest ${digest}`, error);
    options.reporter.report(error, { route: match.pattern, digest, source: 'handler' });
    // Past its headers, a response can only be cut short.
    if (res.headersSent) return void res.destroy();
    sendServerError(res, digest);
  }
}

/** "Load it as a document": the client router's answer for a URL that is no page. */
function sendDocumentAnswer(res: Response, url: RequestTarget, buildId: string): void {
  for (const param of [PAGE_DATA_PARAM, PREFETCH_PARAM, WHOLE_PARAM]) url.searchParams.delete(param);
  dropDocumentHeaders(res);
  const body: DocumentAnswer = { buildId, url: url.pathname + url.search, status: 200, document: true };
  sendJson(noStore(res).status(200), body);
}

/** The request for the handler, or `undefined` when its body was refused (and answered). */
async function readRequest(
  req: Request,
  res: Response,
  url: RequestTarget,
  trustProxy: TrustProxy,
): Promise<globalThis.Request | undefined> {
  try {
    return await toHandlerRequest(req, res, url, trustProxy);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    // After a 413 the rest of the body is not read; closing is cheaper than draining it.
    if (error.status === 413) res.setHeader('connection', 'close');
    sendText(res, error.status, error.message);
    return undefined;
  }
}

function handlersOf(module: Record<string, unknown>, file: string): Handlers {
  const handlers: Handlers = {};
  for (const method of METHODS) {
    const value = module[method];
    if (value === undefined) continue;
    if (typeof value !== 'function') {
      throw new TypeError(`${file} exports ${method} as ${describe(value)}; a route handler is a function`);
    }
    handlers[method] = value as RouteHandler;
  }
  return handlers;
}

/** `GET` brings `HEAD`, and `OPTIONS` is always answered. */
function allowOf(handlers: Handlers): Method[] {
  return METHODS.filter(
    (method) => handlers[method] || (method === 'HEAD' && handlers.GET) || method === 'OPTIONS',
  );
}

/**
 * The refusal of a request sent by a page of another site, or `undefined`. A request with none
 * of the headers browsers send (`Origin`, `Referer`, `Sec-Fetch-Site`) comes from no page: an
 * API client such as curl or another server, which no site can make a visitor's browser act as.
 */
function crossSiteRefusal(req: Request, guard: ActionGuardOptions): string | undefined {
  const { origin, referer } = req.headers;
  if (origin === undefined && referer === undefined && req.headers['sec-fetch-site'] === undefined) {
    return undefined;
  }
  return checkActionOrigin(req, guard)?.message;
}

function someNode(root: RouteNode, test: (node: RouteNode) => boolean): boolean {
  let found = false;
  walkTree(root, (branch) => (found ||= test(branch.at(-1)!)));
  return found;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
  return `an object (${(value as { constructor?: { name?: string } }).constructor?.name ?? 'no class'})`;
}
