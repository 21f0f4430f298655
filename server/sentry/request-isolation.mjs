/**
 * Each request's own Sentry scope when tracing is off, for less than the Node SDK's HTTP
 * integration spends on it: the request runs in an isolation scope of its own (so breadcrumbs,
 * tags and the trace id of one request never reach another's events) that holds its method and
 * URL for an error event. Nothing else per request: no request session, no trace continued from
 * headers, no copy of the headers, no `close` listener. With tracing on the SDK's integration
 * does this and more. Plain JavaScript: the instrument module loads it before any compiler.
 */
import { subscribe } from 'node:diagnostics_channel';

/** Node publishes on it just before a server emits `request`, with the server. */
const REQUEST_START = 'http.server.request.start';

/**
 * @typedef {Pick<typeof import('@sentry/node'), 'withIsolationScope'>} IsolationApi
 * @typedef {import('node:http').Server} Server
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 */

/**
 * Wraps `emit` of every HTTP server once, at its first request, as the SDK's integration does.
 * @param {IsolationApi} sentry
 * @example isolateRequests(await import('@sentry/node'))
 */
export function isolateRequests(sentry) {
  /** @type {WeakSet<Server>} */
  const wrapped = new WeakSet();
  subscribe(REQUEST_START, (message) => {
    const { server } = /** @type {{ server: Server }} */ (message);
    if (wrapped.has(server)) return;
    wrapped.add(server);
    const emit = /** @type {(this: Server, event: string | symbol, ...args: unknown[]) => boolean} */ (
      server.emit
    );
    server.emit = /** @type {Server['emit']} */ (
      function (/** @type {string | symbol} */ event, /** @type {unknown[]} */ ...args) {
        if (event !== 'request') return emit.call(this, event, ...args);
        const request = /** @type {IncomingMessage} */ (args[0]);
        return sentry.withIsolationScope((scope) => {
          // What the SDK's RequestData integration puts on an event as `request`; the privacy
          // rules (`beforeSend`) then drop the query.
          scope.setSDKProcessingMetadata({
            normalizedRequest: { method: request.method ?? 'GET', url: urlOf(request) },
          });
          return emit.call(this, event, ...args);
        });
      }
    );
  });
}

/**
 * The request's absolute URL as the SDK builds it: the forwarded host and scheme when a proxy
 * sent them (Sentry shows the URL the user saw), else the `Host` header and the socket's.
 * @param {IncomingMessage} request
 */
function urlOf({ headers, socket, url = '/' }) {
  const host = headerOf(headers['x-forwarded-host']) ?? headers.host ?? 'localhost';
  const tls = /** @type {{ encrypted?: boolean }} */ (socket).encrypted;
  const scheme = headerOf(headers['x-forwarded-proto']) ?? (tls ? 'https' : 'http');
  return `${scheme}://${host}${url}`;
}

/** @param {string | string[] | undefined} value */
function headerOf(value) {
  return typeof value === 'string' ? value : undefined;
}
