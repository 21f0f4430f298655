/**
 * The error reporter for Sentry: each error the server reports becomes one event,
 * tagged with the route, the digest the user was shown and where it happened (`load`, `render`,
 * `action`, `handler`, …). The SDK is passed in, already initialised by `server/instrument.mjs`,
 * so that the server never loads it when no DSN is set.
 */
import type * as SentryNode from '@sentry/node';
import type { ErrorReporter } from './error-reporter.js';

export type SentryApi = Pick<typeof SentryNode, 'withScope' | 'captureException'>;

/**
 * @example createApp({ …, reporter: sentryReporter(await import('@sentry/node')) })
 */
export function sentryReporter(sentry: SentryApi): ErrorReporter {
  return {
    report(error, { route, digest, source }) {
      sentry.withScope((scope) => {
        // The digest is what a user quotes from the error page: searching for it finds the event.
        scope.setTags({ digest, source, ...(route === null ? {} : { route }) });
        // Express names every page request after its catch-all path; the route says which page.
        if (route !== null) scope.setTransactionName(route);
        sentry.captureException(error, {
          // Not handled by app code: the framework caught it and showed the fallback.
          mechanism: { type: `auto.function.switchyard.${source}`, handled: false },
        });
      });
    },
  };
}
