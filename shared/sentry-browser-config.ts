/**
 * What the server tells the browser about Sentry, as a global set by the document's
 * bootstrap script. It is written only when a DSN is configured: with none the global is absent
 * and the browser never loads the SDK. The DSN's key is public by design; nothing secret is here.
 */
import { serializeForScript } from './serialize-for-script.js';

export interface BrowserSentryConfig {
  dsn: string;
  /** Our own path that relays envelopes (`/monitoring`): the browser never posts to Sentry itself. */
  tunnel: string;
  environment?: string;
  release: string;
  /**
   * The share of page loads and navigations traced, above 0; absent when tracing is off, and the
   * browser then loads no tracing code.
   */
  tracesSampleRate?: number;
  /**
   * The server transaction that rendered this document, when it was traced: the values of the
   * `sentry-trace` and `baggage` headers, for the browser's page load to continue its trace.
   */
  trace?: { sentryTrace: string; baggage: string };
}

export const SENTRY_CONFIG_GLOBAL = '__SWITCHYARD_SENTRY__';

/** The statement that sets the global, safe inside an inline script. */
export function sentryConfigScript(config: BrowserSentryConfig): string {
  return `self.${SENTRY_CONFIG_GLOBAL}=${serializeForScript(config)}`;
}
