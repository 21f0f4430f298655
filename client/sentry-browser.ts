/**
 * The Sentry browser SDK, in a chunk of its own that the entry imports only with a config and only
 * after hydration. Every envelope goes to our tunnel path, so the page talks to its
 * own origin alone. Each error arrives here once (client/error-reporting.ts sees to that), and a
 * server error is sent once per digest. With a traces rate, tracing's own chunk
 * (`sentry-tracing.ts`) loads first and the SDK starts with it.
 */
import { getClient, init, reactErrorHandler, withScope } from '@sentry/react';
import { digestFrom } from '../shared/error-messages.js';
import { scrubBreadcrumb, scrubEvent } from '../shared/sentry-privacy.js';
import type { BrowserSentryConfig } from '../shared/sentry-browser-config.js';
import type { Capture, ErrorKind } from './error-reporting.js';
import type { TracedPage } from './sentry-tracing.js';

export async function startSentry(config: BrowserSentryConfig, page: TracedPage): Promise<Capture> {
  const tracing = config.tracesSampleRate ? await import('./sentry-tracing.js') : undefined;
  const traced = tracing && tracing.tracingOptions(config.tracesSampleRate!, page);
  init({
    dsn: config.dsn,
    tunnel: config.tunnel,
    release: config.release,
    ...(config.environment ? { environment: config.environment } : {}),
    // No personal data by default: no IP address, and no query strings in URLs.
    dataCollection: { userInfo: false, cookies: false, httpHeaders: false, urlQueryParams: false },
    beforeSend: scrubEvent,
    beforeBreadcrumb: scrubBreadcrumb,
    ...(traced
      ? {
          tracesSampleRate: traced.tracesSampleRate,
          tracePropagationTargets: traced.tracePropagationTargets,
          beforeSendSpan: traced.beforeSendSpan,
          integrations: [traced.integration],
        }
      : {}),
  });
  const client = getClient();
  if (tracing && client) tracing.startTracing(client, config, page);
  // Sentry's handler for these very hooks. With a callback it marks the event handled: a boundary
  // showed its fallback, or React recovered; an uncaught error is not handled.
  const handled = () => {};
  const handlers: Record<ErrorKind, ReturnType<typeof reactErrorHandler>> = {
    caught: reactErrorHandler(handled),
    recoverable: reactErrorHandler(handled),
    uncaught: reactErrorHandler(),
  };
  return oncePerDigest((kind, error, { componentStack }) => {
    withScope((scope) => {
      // The digest the user was shown ties this event to the server's.
      const digest = digestFrom(error);
      if (digest !== undefined) scope.setTag('digest', digest);
      handlers[kind](error, { componentStack: componentStack ?? null });
    });
  });
}

/**
 * `send`, but a server error only the first time its digest comes: React's recoverable error and
 * the boundary's error name the same one.
 */
export function oncePerDigest(send: Capture): Capture {
  const sent = new Set<string>();
  return (kind, error, details) => {
    const digest = digestFrom(error);
    if (digest !== undefined) {
      if (sent.has(digest)) return;
      sent.add(digest);
    }
    send(kind, error, details);
  };
}
