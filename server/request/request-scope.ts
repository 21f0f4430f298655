/**
 * The request being answered, for app code that runs while it is: `cookies()`, `headers()`,
 * `setStatus()` and `setHeader()` from `switchyard-react/server` work in middleware, loaders,
 * actions and route handlers alike, with no request object passed down (as Next.js's `cookies()`
 * does). The scope lives in an `AsyncLocalStorage` for the length of one request, and beside the
 * response, where the framework's own code finds it: React calls back (`onShellReady`) in
 * whatever async context it likes, and the answer's status and headers must not depend on that.
 *
 * What app code sets is kept here and applied to the answer at the moment its headers go out,
 * whatever writes it (a page, page data, an error page, a redirect, a route handler's `Response`):
 * so a cookie set before a redirect travels with the redirect. After that moment nothing can be
 * added: in development that is a thrown error, in production a logged warning.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Express, RequestHandler, Response } from 'express';
import type { Logger } from '../options.js';
import { addVary, isNeverStored } from '../http/answers.js';
import { requestScheme, type TrustProxy } from '../http/request-url.js';
import { CookieJar, cookieKey, cookiesNotIn } from './cookies.js';

/**
 * One request's scope. Most requests never touch cookies or headers, so the cookie jar and the
 * headers are made when first asked for, and an answer with nothing set passes `writeHead` with
 * one check.
 *
 * It keeps the request's headers and whether its socket is TLS, never the request itself: every
 * timer or promise made while the request is answered carries its scope, and some outlive the
 * answer (a keep-alive socket's idle timer lasts until the next request on that socket). Through
 * the request (Express links it to its response) the scope would keep the finished response and
 * its whole render alive all that time, one per open connection.
 */
export class RequestScope {
  /** The status a loader asked for; a page that renders is sent with it. */
  status: number | undefined = undefined;
  /** The answer's headers have gone out: nothing more can be set. */
  sent = false;
  /** The request's headers, as Node parsed them. */
  readonly requestHeaders: IncomingHttpHeaders;
  private readonly tls: boolean;
  private jar: CookieJar | undefined;
  private added: Headers | undefined;

  constructor(
    req: IncomingMessage,
    private readonly config: ScopeConfig,
  ) {
    this.requestHeaders = req.headers;
    this.tls = (req.socket as { encrypted?: boolean } | undefined)?.encrypted === true;
  }

  get development(): boolean {
    return this.config.development;
  }

  get logger(): Logger {
    return this.config.logger;
  }

  get cookies(): CookieJar {
    if (!this.jar) {
      const { key, trustProxy } = this.config;
      const headers = this.requestHeaders;
      const https = requestScheme({ headers, socket: { encrypted: this.tls } }, trustProxy) === 'https';
      this.jar = new CookieJar(headers.cookie, key, https);
    }
    return this.jar;
  }

  /** Headers app code added to the answer, applied over the framework's own. */
  get headers(): Headers {
    return (this.added ??= new Headers());
  }

  /** Puts what app code set on the answer, once, as its head goes out. */
  applyTo(res: Response): void {
    this.sent = true;
    if (res.headersSent) return;
    // Vary lists what the answer depends on: the app's fields join the server's own
    // (`accept-encoding`, which a cache needs as much), where every other header replaces.
    // The framework's own answers (errors, refusals, redirects) keep their `no-store`.
    this.added?.forEach((value, name) => {
      if (name === 'vary') addVary(res, value);
      else if (name !== 'cache-control' || !isNeverStored(res)) res.setHeader(name, value);
    });
    const lines = this.jar ? this.notSetBy(res, this.jar.setCookieLines()) : [];
    if (lines.length > 0) res.appendHeader('set-cookie', lines);
  }

  /**
   * A cookie the answer sets itself (a route handler's or middleware's `Response`) wins over
   * `cookies().set()` or `delete()` of the same cookie, as the returned `Response`'s do in
   * Next.js: one `Set-Cookie` line per name, path and domain, never two that a browser would
   * apply in turn.
   */
  private notSetBy(res: Response, lines: string[]): string[] {
    const own = res.getHeader('set-cookie');
    if (own === undefined || lines.length === 0) return lines;
    const path = res.req.originalUrl.split('?', 1)[0]!;
    return cookiesNotIn(Array.isArray(own) ? own : [String(own)], lines, path);
  }
}

interface ScopeConfig {
  key: Buffer;
  trustProxy: TrustProxy;
  development: boolean;
  logger: Logger;
}

export interface RequestScopeOptions {
  secret: string;
  trustProxy: TrustProxy;
  mode: 'production' | 'development';
  logger: Logger;
}

const storage = new AsyncLocalStorage<RequestScope>();
/**
 * Each answer's scope, on the response itself, for the framework's code that holds it. A field
 * rather than a `WeakMap` entry: an entry per response costs some 0.2 µs to add and is work for
 * every young-generation collection while its response lives.
 */
const SCOPE = Symbol('switchyard.requestScope');
type ScopedResponse = Response & { [SCOPE]?: RequestScope };

/**
 * Express middleware: runs the rest of the request inside its scope. `app` is the Express app it
 * is mounted on: its answers get the scope's additions as their head goes out.
 */
export function requestScope(
  app: Express,
  { secret, trustProxy, mode, logger }: RequestScopeOptions,
): RequestHandler {
  const config: ScopeConfig = {
    key: cookieKey(secret),
    trustProxy,
    development: mode === 'development',
    logger,
  };
  // Node writes every answer's head through `writeHead` (an answer that never calls it gets an
  // implicit one), so it is the one place where all answers pass. Every response of the app has
  // `app.response` in its prototype chain (Express gives it that prototype, or the production
  // server makes it with a subclass in front of it): one `writeHead` there, not a wrapper made
  // per answer.
  // It calls the `writeHead` the prototype chain has at that moment (an agent may patch Node's).
  const proto = app.response as ScopedResponse;
  const inherited = Object.getPrototypeOf(proto) as Response;
  const scopedWriteHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
    commitAnswer(this);
    return inherited.writeHead.apply(this, args);
  } as Response['writeHead'];
  proto.writeHead = scopedWriteHead;
  return (req, res, next) => {
    const scope = new RequestScope(req, config);
    (res as ScopedResponse)[SCOPE] = scope;
    // Middleware in front of this app (morgan, compression or express-session, through
    // `on-headers`) may have given the response a `writeHead` of its own, which Node calls in
    // place of the prototype's: that one is wrapped, for this answer alone.
    if (res.writeHead !== scopedWriteHead) {
      const own = res.writeHead;
      res.writeHead = function (this: Response, ...args: Parameters<Response['writeHead']>) {
        commitAnswer(this);
        return own.apply(this, args);
      } as Response['writeHead'];
    }
    storage.run(scope, next);
  };
}

/**
 * Puts what app code set on the answer at the moment its status and head are chosen, rather than
 * when the head reaches the socket: a compressed page's head goes out only with its first
 * compressed bytes, and a `setStatus` in between would otherwise be lost without a word. From
 * here on such a call is too late, and says so.
 */
export function commitAnswer(res: Response): void {
  const scope = (res as ScopedResponse)[SCOPE];
  if (scope && !scope.sent) scope.applyTo(res);
}

/** The scope of the request being answered; `what` names the caller for the error outside one. */
export function currentScope(what: string): RequestScope {
  const scope = storage.getStore();
  if (!scope) {
    throw new Error(
      `${what} can only be called while a request is answered: in middleware, a loader, a server action or a route handler`,
    );
  }
  return scope;
}

/**
 * Whether something may still be added to the answer. Too late, development throws (the author
 * sees it at once) and production logs and goes on: the page is already on its way.
 */
export function stillOpen(scope: RequestScope, what: string): boolean {
  if (!scope.sent) return true;
  const message =
    `${what} came after the response's headers were sent (a loader below a loading state runs ` +
    'after the page has started streaming): it was ignored. Call it from a loader that runs before the shell, or from middleware.';
  if (scope.development) throw new Error(message);
  scope.logger.error(`[switchyard] warning: ${message}`);
  return false;
}

/** The status a page answer goes out with: the loader's, unless the page itself is a 404 or 500. */
export function pageStatus(res: Response, base: number): number {
  const status = (res as ScopedResponse)[SCOPE]?.status;
  return base === 200 && status !== undefined ? status : base;
}
