/**
 * The one seam through which a request's work becomes performance spans: the request's name
 * (its route pattern, never its path), a span per loader, middleware, action, route handler,
 * render to the shell and streamed place, and the trace the document hands the browser. With
 * tracing off the server holds `NO_TRACER`, chosen once at start-up: each call is a no-op that
 * builds no name and loads no SDK.
 */

/** What a request is to the router: its transaction says so in `switchyard.request`. */
export type RequestKind = 'document' | 'page-data' | 'action' | 'handler';

/**
 * A piece of a request's work, named `<kind> <subject>`: `load photos/[id]/page.server.ts`,
 * `middleware middleware.ts`, `action addComment`, `handler api/photos/route.ts`,
 * `render /photos/[id]`, `stream photos/[id]#pageData`.
 */
export type WorkKind = 'load' | 'middleware' | 'action' | 'handler' | 'render' | 'stream';

/** The request's trace as the browser continues it: the values of `sentry-trace` and `baggage`. */
export interface TraceData {
  sentryTrace: string;
  baggage: string;
}

export interface RequestTracer {
  /**
   * Names the request's transaction `<method> <route>`: a route pattern (`/photos/[id]`), or
   * `action:<name>`. `route` is only read when tracing is on; `null` means no route matched.
   */
  nameRequest(method: string, kind: RequestKind, route: () => string | null): void;
  /** Runs `work` as a child span of the request's; a promise's span ends when it settles. */
  span<T>(kind: WorkKind, subject: string, work: () => T): T;
  /** Starts a child span that the caller ends (more than once is fine): the render, a streamed place. */
  start(kind: WorkKind, subject: string): () => void;
  /** The trace of the request's transaction, for the document; `undefined` when not traced. */
  traceData(): TraceData | undefined;
}

const end = () => {};

export const NO_TRACER: RequestTracer = {
  nameRequest: () => {},
  span: (_kind, _subject, work) => work(),
  start: () => end,
  traceData: () => undefined,
};
