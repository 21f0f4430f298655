/**
 * `createApp(options)` returns an Express app that serves a Switchyard app and never listens:
 * `server/main.ts` listens, tests drive the app with supertest.
 */
import express, {
  type ErrorRequestHandler,
  type Express,
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { ACTION_PATH } from '../shared/actions.js';
import { decodePathname, matchRoute } from '../shared/match-route.js';
import { createActionHandler } from './actions/action-handler.js';
import { createRouteHandlers } from './handlers/route-handlers.js';
import { createFormStateStore } from './render/form-state.js';
import { createDocumentHandler, type RenderStats } from './render/render-document.js';
import { resolveOptions, type ResolvedOptions, type SwitchyardOptions } from './options.js';
import { digestOf } from './http/digest.js';
import { checkHost } from './http/request-url.js';
import { createRouteRuntime } from './render/route-runtime.js';
import { NO_SCRIPT_CSP, setSecurityHeaders } from './http/security-headers.js';
import { serveStaticFiles } from './http/static-files.js';
import { runMiddleware } from './request/middleware.js';
import { requestScope } from './request/request-scope.js';
import { sendMethodNotAllowed, sendText } from './http/answers.js';
import { createSentryTunnel } from './sentry/sentry-tunnel.js';

export interface SwitchyardApp extends Express {
  locals: Express['locals'] & { stats: RenderStats };
}

export function createApp(input: SwitchyardOptions): SwitchyardApp {
  const options = resolveOptions(input);
  const runtime = createRouteRuntime(options.modules, options.assets, options.mode === 'production');
  const stats: RenderStats = { activeRenders: 0, pendingDeadlines: 0 };
  const app = express() as SwitchyardApp;
  app.locals.stats = stats;
  app.disable('x-powered-by');
  app.set('etag', false);
  // The build's files, listed once: a page request never touches the file system for them.
  const staticFiles = options.staticDir ? serveStaticFiles(options.staticDir) : undefined;
  // Mounted with no DSN too: it answers 404 then, where a POST elsewhere is a 405.
  const tunnel = express
    .Router()
    .post(
      options.sentry.tunnelPath,
      createSentryTunnel({ dsn: options.sentry.dsn, timeoutMs: options.sentry.tunnelTimeoutMs }),
    );
  const enterScope = requestScope({
    secret: options.secret,
    trustProxy: options.actionOrigins.trustProxy,
    mode: options.mode,
    logger: options.logger,
  });
  const middlewareFile = runtime.tree.files.middleware;
  const middleware = middlewareFile ? runMiddleware(runtime, middlewareFile, options) : undefined;

  const routeOf = (path: string) => {
    const segments = decodePathname(path.split('?')[0]!);
    return (segments && matchRoute(runtime.tree, segments)?.pattern) ?? null;
  };
  const formStates = createFormStateStore({
    now: options.now,
    secret: options.secret,
    trustProxy: options.actionOrigins.trustProxy,
  });
  const renderDocument = createDocumentHandler(runtime, options, stats, formStates);
  // A page in answer to a no-JS post whose form state is too large for a cookie.
  const renderPage = (req: Request, res: Response, path: string) => {
    req.originalUrl = path;
    return renderDocument(req, res);
  };
  // A POST anywhere else is a 405, and GET on an action URL is one too.
  const actions = express.Router();
  actions.post(`${ACTION_PATH}:id`, createActionHandler(options, routeOf, formStates, renderPage));
  actions.all(`${ACTION_PATH}:id`, (_req, res) => sendMethodNotAllowed(res, ['POST'], 'actions take POST.'));
  const routeHandlers = createRouteHandlers(runtime, options);

  /*
   * Every request passes one layer, in this order: the security headers and the Host check; the
   * build's files; past them (an app's service worker sets its own rules) no answer runs a
   * script unless its handler says so (a rendered page replaces the policy with its nonce's, an
   * error page sent instead keeps it; in development pages carry none, Vite's scripts have no
   * nonce); the Sentry tunnel; then, inside the request's scope where app code runs, the app's
   * middleware, actions, route handlers (a URL a `route.ts` matches is its handler's, whatever
   * the method) and pages. The rare routes keep Express's matching, entered only when a plain
   * check says they might match: one layer costs a page request less than a dozen.
   */
  const production = options.mode === 'production';
  const page = (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD') return handle(renderDocument, req, res, next);
    sendMethodNotAllowed(res, ['GET', 'HEAD'], 'pages take GET and HEAD.');
  };
  const afterActions = (req: Request, res: Response, next: NextFunction) => {
    if (routeHandlers) handle(routeHandlers, req, res, orFail(req, res, next, page));
    else page(req, res, next);
  };
  const afterMiddleware = (req: Request, res: Response, next: NextFunction) => {
    if (ACTION_PREFIX.test(req.path)) {
      return actions(req, res, orFail(req, res, next, afterActions));
    }
    afterActions(req, res, next);
  };
  const inScope = (req: Request, res: Response, next: NextFunction) => {
    if (middleware) handle(middleware, req, res, orFail(req, res, next, afterMiddleware));
    else afterMiddleware(req, res, next);
  };
  app.use(function frontDoor(req, res, next) {
    setSecurityHeaders(res);
    if (!checkHost(req, res)) return;
    if (staticFiles?.(req, res, next)) return;
    if (production) res.setHeader('content-security-policy', NO_SCRIPT_CSP);
    const enter = () => enterScope(req, res, () => inScope(req, res, next));
    if (req.method !== 'POST') return enter();
    tunnel(req, res, (error?: unknown) => (error ? next(error) : enter()));
  });
  app.use(finalErrorHandler(options));
  return app;
}

type Step = (req: Request, res: Response, next: NextFunction) => void;

/** An action's URL, as Express matches its route: any case. */
const ACTION_PREFIX = new RegExp(`^${ACTION_PATH}`, 'i');

/** Runs a handler as an Express layer does: what it throws or rejects with goes to `next`. */
function handle(handler: RequestHandler, req: Request, res: Response, next: NextFunction): void {
  try {
    const result: unknown = handler(req, res, next);
    if (result instanceof Promise) {
      result.then(undefined, (error: unknown) => next(error ?? new Error('Rejected promise')));
    }
  } catch (error) {
    next(error);
  }
}

/** A `next` for a handler that may pass the request on: to `step`, or with an error to `next`. */
function orFail(req: Request, res: Response, next: NextFunction, step: Step): NextFunction {
  return (error?: unknown) => (error ? next(error) : step(req, res, next));
}

/**
 * Client errors keep their status and a plain message; anything else is a bare 500, logged and
 * reported with its digest like every other server error: what gets here is a fault of the
 * server itself (its static files, its own middleware), which no page's handler caught.
 */
function finalErrorHandler({
  logger,
  reporter,
}: Pick<ResolvedOptions, 'logger' | 'reporter'>): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    // Set here too: the error may come from the files, or from development, which no default
    // policy covers.
    if (!res.headersSent) res.setHeader('content-security-policy', NO_SCRIPT_CSP);
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      sendText(res, status, 'the request could not be read.');
      return;
    }
    const digest = digestOf(error);
    logger.error(`[switchyard] unhandled error, ${req.method} ${req.path}, digest ${digest}`, error);
    reporter.report(error, { route: null, digest, source: 'server' });
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendText(res, 500, 'the server failed to answer; the log says why.');
  };
}
