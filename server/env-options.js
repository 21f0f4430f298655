/**
 * The request-safety settings a deployment gives `switchyard start` through the environment,
 * checked once at start-up: a bad value stops the server with a message naming
 * the variable, never a silently open or silently closed door.
 *
 * - `SWITCHYARD_TRUST_PROXY=<N>`: behind N proxies (`1`, or `2` for a CDN and a load balancer)
 *   that set `X-Forwarded-Host`/`-Proto` themselves; `true` is 1, `0` or `false` none.
 * - `SWITCHYARD_ACTION_ORIGINS`: other origins whose pages may call actions, comma-separated.
 * - `SWITCHYARD_REDIRECT_ORIGINS`: other origins `redirect()` may send users to, comma-separated.
 * - `SWITCHYARD_ACTION_RATE_LIMIT`: `<calls>/<seconds>` one client may make (`30/10` by default),
 *   or `off`.
 * - `SWITCHYARD_ALLOWED_HOSTS`: the host names the app is served under; actions from any other
 *   are refused (DNS rebinding). Unset allows any.
 * - `SWITCHYARD_SECRET`: at least 32 characters, the same on every process and machine; it signs
 *   the no-JS form answer the browser carries back. Unset, each process makes its own.
 *
 * Plain JavaScript, so that `switchyard start` checks them before the app's start-up hook runs,
 * with no compiler loaded and before the server bundle is.
 */
import { URL } from 'node:url';

/** Shorter than this, a secret could be guessed; `createApp` holds a `secret` to it too. */
export const MIN_SECRET_LENGTH = 32;

/**
 * @typedef {Record<string, string | undefined>} Env
 * @typedef {{
 *   secret: string | undefined,
 *   actionRateLimit: { max: number, windowMs: number } | false | undefined,
 *   actionOrigins: { trustProxy: number, allowedOrigins: string[], allowedHosts: string[] },
 *   allowedRedirectOrigins: string[],
 * }} EnvOptions
 */

/**
 * The `createApp` options the environment gives; a bad value throws with the variable's name.
 * @param {Env} env
 * @returns {EnvOptions}
 */
export function optionsFromEnv(env) {
  return {
    secret: secret(env, 'SWITCHYARD_SECRET'),
    actionRateLimit: rateLimit(env, 'SWITCHYARD_ACTION_RATE_LIMIT'),
    actionOrigins: {
      trustProxy: proxyCount(env, 'SWITCHYARD_TRUST_PROXY'),
      allowedOrigins: origins(env, 'SWITCHYARD_ACTION_ORIGINS'),
      allowedHosts: hostNames(env, 'SWITCHYARD_ALLOWED_HOSTS'),
    },
    allowedRedirectOrigins: origins(env, 'SWITCHYARD_REDIRECT_ORIGINS'),
  };
}

/**
 * How many proxies in front of the server are trusted, as Express's `trust proxy` counts them:
 * `0`/`false`/unset none, `true` one (what `1` has always meant), a number that many.
 * @param {Env} env
 * @param {string} name
 */
function proxyCount(env, name) {
  const value = env[name]?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'false') return 0;
  if (value === 'true') return 1;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  throw new Error(
    `${name} must be the number of proxies in front of the server (1, or 2 for a CDN and a load balancer), 0 for none, got ${JSON.stringify(value)}`,
  );
}

/**
 * Each entry must be exactly an origin (`https://a.example`): no path, no user, no wildcard.
 * @param {Env} env
 * @param {string} name
 */
function origins(env, name) {
  const entries = (env[name] ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    /** @type {URL | undefined} */
    let url;
    try {
      url = new URL(entry);
    } catch {
      url = undefined;
    }
    const exact = url?.origin === entry.replace(/\/$/, '') && !entry.includes('*');
    if (!url || !/^https?:$/.test(url.protocol) || !exact) {
      throw new Error(`${name}: ${JSON.stringify(entry)} is not an origin such as https://app.example.com`);
    }
    return url.origin;
  });
}

/**
 * Each entry must be a bare host name (`app.example.com`, `localhost`): no scheme, port or path.
 * @param {Env} env
 * @param {string} name
 */
function hostNames(env, name) {
  const entries = (env[name] ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of entries) {
    if (!/^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])$/.test(entry)) {
      throw new Error(`${name}: ${JSON.stringify(entry)} is not a host name such as app.example.com`);
    }
  }
  return entries;
}

/**
 * @param {Env} env
 * @param {string} name
 * @returns {EnvOptions['actionRateLimit']}
 */
function rateLimit(env, name) {
  const value = env[name]?.trim().toLowerCase() ?? '';
  if (value === '') return undefined;
  if (value === 'off') return false;
  const [, calls, seconds] = /^(\d+)\/(\d+)$/.exec(value) ?? [];
  if (!calls || !seconds || Number(calls) === 0 || Number(seconds) === 0) {
    throw new Error(`${name} must be <calls>/<seconds> such as 30/10, or off; got ${JSON.stringify(value)}`);
  }
  return { max: Number(calls), windowMs: Number(seconds) * 1000 };
}

/**
 * Long enough that it cannot be guessed; its value never appears in a message.
 * @param {Env} env
 * @param {string} name
 */
function secret(env, name) {
  const value = env[name] ?? '';
  if (value === '') return undefined;
  if (value.length < MIN_SECRET_LENGTH) {
    throw new Error(
      `${name} must be at least ${MIN_SECRET_LENGTH} characters (such as \`openssl rand -base64 32\`), got ${value.length}`,
    );
  }
  return value;
}
