/**
 * How the server starts the Node SDK: the settings, the privacy rules and which integrations run,
 * which differ with tracing off and on. The instrument module calls it before Express loads; the
 * tests call it with a receiver's DSN. Plain JavaScript, for `node --import`.
 */
import { isolateRequests } from './request-isolation.mjs';
import { DATA_COLLECTION, scrubBreadcrumb, scrubEvent, scrubSpan } from './sentry-privacy.mjs';

/**
 * @typedef {object} NodeSdkSettings
 * @property {string} dsn
 * @property {string | undefined} environment
 * @property {string | undefined} release
 * @property {number} sampleRate
 * @property {number} tracesSampleRate 0 for no tracing
 * @property {(urlPath: string) => boolean} untraced requests never traced (the tunnel, built files)
 * @property {string | undefined} relayedTo where the tunnel relays envelopes, never traced
 */

/**
 * @param {typeof import('@sentry/node')} Sentry
 * @param {NodeSdkSettings} settings
 * @example startSentry(await import('@sentry/node'), { dsn, tracesSampleRate: 0, … })
 */
export function startSentry(Sentry, settings) {
  const tracing = settings.tracesSampleRate > 0;
  Sentry.init({
    dsn: settings.dsn,
    environment: settings.environment,
    release: settings.release,
    sampleRate: settings.sampleRate,
    // A rate of 0 sets up no tracing at all: no span per request, sampled or not. `null`, not
    // `undefined`, which has the SDK read SENTRY_TRACES_SAMPLE_RATE itself and trace with 0.
    tracesSampleRate: tracing
      ? settings.tracesSampleRate
      : /** @type {number} */ (/** @type {unknown} */ (null)),
    // Tracing off needs none of the SDK's rewriting of modules as they load (Express's router among
    // them, which it wraps layer by layer for spans): that costs every request a wrapper per layer
    // and the start-up a parse of each such module. Errors are reported by Switchyard itself.
    enableRuntimeChannelInjection: tracing,
    // No personal data by default.
    dataCollection: DATA_COLLECTION,
    beforeSend: scrubEvent,
    beforeBreadcrumb: scrubBreadcrumb,
    beforeSendSpan: scrubSpan,
    integrations: (defaults) => [
      // Dedupe drops an event that repeats the one before, which for a server is the next
      // occurrence of the same failure: each request's error is reported once, so keep them all.
      ...defaults.filter(
        ({ name }) => !['Dedupe', 'Http', 'NodeFetch', ...(tracing ? [] : ['Express'])].includes(name),
      ),
      // Tracing off leaves the HTTP integration out: per request it cloned scopes, copied the
      // headers, continued the incoming trace and counted a request session: most of what Sentry
      // cost a request. `isolateRequests` below keeps what error events need of it.
      // Its outgoing `node:http` breadcrumbs go with it; `fetch`'s stay (NodeFetch). Express's
      // integration goes too: it binds a scope around every router layer of every request, for
      // its layer spans, and only reports errors that reach Express's own error handler, which
      // the server's last error handler reports itself (source `server`).
      ...(tracing
        ? // Only requests a route answers are traced: not the tunnel, the build's files, public ones.
          [Sentry.httpIntegration({ ignoreIncomingRequests: settings.untraced })]
        : []),
      // The SDK skips its own requests by their `sentry_key` query, which relayed ones lack.
      Sentry.nativeNodeFetchIntegration({
        ignoreOutgoingRequests: (url) => url.split('?')[0] === settings.relayedTo,
      }),
    ],
  });
  if (!tracing) isolateRequests(Sentry);
  // What the SDK's own integrations could capture besides our reporter, and why it is not twice:
  // - Express (tracing on): only errors that reach Express's error handlers; Switchyard's handlers answer
  //   their errors themselves (a 500 with a digest), so those are never passed on.
  // - onUncaughtException / onUnhandledRejection: a reported error is marked captured by the SDK
  //   (`captureException` flags the object), so a later capture of the same error is dropped.
}
