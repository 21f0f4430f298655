/**
 * Sentry settings from the environment, read the same way by the instrument module
 * (which initialises the Node SDK) and the production entry (which tells the browser). No
 * `SENTRY_DSN` means no Sentry at all: `undefined`, and nothing is loaded or sent. Plain
 * JavaScript, because `node --import` runs it before any compiler is loaded.
 */

import { URL } from 'node:url';

/** Where browsers post envelopes; the server's tracing leaves this path out. */
export const SENTRY_TUNNEL_PATH = '/monitoring';

/**
 * @typedef {object} SentryConfig
 * @property {string} dsn
 * @property {string | undefined} environment `SENTRY_ENVIRONMENT`; Sentry says `production` without it.
 * @property {string | undefined} release `SENTRY_RELEASE`, else the build id.
 * @property {number} sampleRate `SENTRY_SAMPLE_RATE`: the share of error events sent, 1 by default.
 * @property {number} tracesSampleRate `SENTRY_TRACES_SAMPLE_RATE`: the share of requests traced, 0 by default.
 * @property {string} tunnelPath
 */

/**
 * @param {Record<string, string | undefined>} env
 * @param {string | undefined} buildId
 * @returns {SentryConfig | undefined}
 * @example readSentryConfig({ SENTRY_DSN: 'https://key@o1.ingest.sentry.io/123' }, 'a1b2c3')
 * // { dsn: '…', environment: undefined, release: 'a1b2c3', sampleRate: 1, tracesSampleRate: 0, … }
 */
export function readSentryConfig(env, buildId) {
  // An empty SENTRY_DSN is how deployment tools usually say "none".
  const dsn = env.SENTRY_DSN?.trim();
  if (!dsn) return undefined;
  if (!isDsn(dsn)) {
    // The DSN itself is not repeated: a mistyped one may hold more than the public key.
    throw new TypeError(
      'SENTRY_DSN must be an http(s) Sentry DSN with a public key and a numeric project id, such as https://<key>@o1.ingest.sentry.io/123.',
    );
  }
  return {
    dsn,
    environment: env.SENTRY_ENVIRONMENT || undefined,
    release: env.SENTRY_RELEASE || buildId,
    sampleRate: readRate(env, 'SENTRY_SAMPLE_RATE', 1),
    tracesSampleRate: readRate(env, 'SENTRY_TRACES_SAMPLE_RATE', 0),
    tunnelPath: SENTRY_TUNNEL_PATH,
  };
}

/**
 * The shape the tunnel relays to (`parseDsn` in sentry-dsn.ts reads it the same way): an http(s)
 * URL with a public key as its user, no query or fragment, and a numeric project id last.
 * @param {string} text
 */
function isDsn(text) {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (
    /^https?:$/.test(url.protocol) &&
    !!url.username &&
    !url.search &&
    !url.hash &&
    /\/\d+$/.test(url.pathname)
  );
}

/**
 * A rate from 0 to 1. A typo fails the start-up: silently sampling nothing would look like a
 * healthy app.
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 * @param {number} fallback
 */
function readRate(env, name, fallback) {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const rate = Number(text);
  if (!(rate >= 0 && rate <= 1)) throw new TypeError(`${name} must be a number from 0 to 1, got "${text}".`);
  return rate;
}
