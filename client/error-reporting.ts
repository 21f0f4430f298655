/**
 * Browser error reporting. `hydrateRoot`'s three error hooks log each error to the
 * console, as React's defaults do, and hand it to Sentry: router signals never (the SDK's chunk
 * sends a server error once per digest). With no Sentry config that is all; with one, errors wait
 * here until the SDK takes them, imported after hydration or, when an error comes first, at once.
 */
import { isRouterSignal } from '../shared/router-signals.js';
import type { BrowserSentryConfig } from '../shared/sentry-browser-config.js';

/** Which of `hydrateRoot`'s hooks saw the error. */
export type ErrorKind = 'caught' | 'uncaught' | 'recoverable';
export interface ErrorDetails {
  componentStack?: string | undefined;
}
/** Sends one error to Sentry: what the lazily loaded SDK module gives back. */
export type Capture = (kind: ErrorKind, error: unknown, details: ErrorDetails) => void;
type Hook = (error: unknown, details: ErrorDetails) => void;

export interface ErrorReporting {
  /** For `hydrateRoot(container, element, rootOptions)`. */
  rootOptions: { onCaughtError: Hook; onUncaughtError: Hook; onRecoverableError: Hook };
  /** Loads the SDK and sends what waited; does nothing without a config. Call after hydration. */
  start(): Promise<void>;
}

/** Errors kept while the SDK loads; past this a render loop would only fill memory. */
const MAX_WAITING = 30;

export function createErrorReporting(
  config: BrowserSentryConfig | undefined,
  loadSdk: (config: BrowserSentryConfig) => Promise<Capture>,
  log: (...data: unknown[]) => void = console.error,
): ErrorReporting {
  const waiting: Parameters<Capture>[] = [];
  let capture: Capture | undefined;
  let loading: Promise<void> | undefined;

  const hook =
    (kind: ErrorKind): Hook =>
    (error, details) => {
      // A signal caught by a signal boundary is routing, not a failure.
      if (isRouterSignal(error)) return;
      log(error);
      if (!config) return;
      if (capture) return capture(kind, error, details);
      if (waiting.length < MAX_WAITING) waiting.push([kind, error, details]);
      // React calls these hooks as it commits, so hydration is over, or it failed and will never
      // say so (an error that reaches AppErrorBoundary replaces the tree that would): load now.
      void start();
    };

  function start(): Promise<void> {
    if (!config) return Promise.resolve();
    return (loading ??= loadSdk(config).then(
      (loaded) => {
        capture = loaded;
        for (const args of waiting.splice(0)) loaded(...args);
      },
      (error: unknown) => {
        // A chunk that fails to load (a redeploy, a flaky network) must not break the page.
        waiting.length = 0;
        log('switchyard: the Sentry SDK did not load; errors are not reported', error);
      },
    ));
  }

  return {
    rootOptions: {
      onCaughtError: hook('caught'),
      onUncaughtError: hook('uncaught'),
      onRecoverableError: hook('recoverable'),
    },
    start,
  };
}
