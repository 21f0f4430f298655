/**
 * `createApp(options)` returns an Express app that serves a Switchyard app and never listens:
 * `server/main.ts` listens, tests drive the app with supertest.
 */
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
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
import { NO_SCRIPT_CSP, noScriptByDefault, securityHeaders } from './http/security-headers.js';
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
  app.use(securityHeaders);
  app.use(checkHost);

  // The build's files, listed once: a page request never touches the file system for them.
  if (options.staticDir) app.use(serveStaticFiles(options.staticDir));
  // Past the files (an app's service worker sets its own rules), no answer runs a script unless
  // its handler says so: a rendered page replaces the policy with its nonce's, and an error page
  // sent instead keeps it. In development pages carry none (Vite's scripts have no nonce).
  if (options.mode === 'production') app.use(noScriptByDefault);

  // Mounted with no DSN too: it answers 404 then, where a POST elsewhere is a 405.
  const tunnel = createSentryTunnel({ dsn: options.sentry.dsn, timeoutMs: options.sentry.tunnelTimeoutMs });
  app.post(options.sentry.tunnelPath, tunnel);

  // From here on app code runs: `cookies()`, `setHeader()` and the rest find their request.
  app.use(
    requestScope(app, {
      secret: options.secret,
      trustProxy: options.actionOrigins.trustProxy,
      mode: options.mode,
      logger: options.logger,
    }),
  );

  // The app's middleware, if it has one: before actions, pages and page data, after the files.
  const middleware = runtime.tree.files.middleware;
  if (middleware) app.use(runMiddleware(runtime, middleware, options));

  // Actions first: a POST anywhere else is a 405, and GET on an action URL is one too.
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
  app.post(`${ACTION_PATH}:id`, createActionHandler(options, routeOf, formStates, renderPage));
  app.all(`${ACTION_PATH}:id`, (_req, res) => sendMethodNotAllowed(res, ['POST'], 'actions take POST.'));

  // A URL a `route.ts` matches is its handler's, whatever the method; every other is a page's.
  const routeHandlers = createRouteHandlers(runtime, options);
  if (routeHandlers) app.use(routeHandlers);
  app.get(/.*/, renderDocument);
  app.head(/.*/, renderDocument);
  app.all(/.*/, (_req, res) => sendMethodNotAllowed(res, ['GET', 'HEAD'], 'pages take GET and HEAD.'));
  app.use(finalErrorHandler(options));
  return app;
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
