/**
 * The one seam through which real errors leave the server for an error tracker:
 * render, `load`, action, middleware and route handler errors, and the server's own faults, each
 * reported once, with the route and the digest the user saw. Router signals, 4xx answers and aborted renders never get here.
 */
export interface ErrorContext {
  /** The matched route pattern (`/photos/[id]`), or `null` when nothing matched. */
  route: string | null;
  /** The digest the browser was shown for this error. */
  digest: string;
  /** Where it happened; `server` is the server's own fault, outside any app code. */
  source: 'render' | 'load' | 'action' | 'middleware' | 'handler' | 'server';
}

export interface ErrorReporter {
  report(error: unknown, context: ErrorContext): void;
}

/** With no tracker configured, the server log (which always has the digest) is the record. */
export const NO_REPORTER: ErrorReporter = { report: () => {} };
