/**
 * The app's router settings: the cache windows, the queue size and the route-script
 * timeout. Defaults come from `constants.ts`; an app overrides any of them in
 * `switchyard.config.json` in its app directory, read once at build (or dev start) and compiled
 * into the client. A route may still declare its own windows (`cachePolicy` in `page.server`).
 *
 *   { "prefetch": { "freshMs": 10000, "staleMs": 120000, "concurrency": 3 },
 *     "routeScriptTimeoutMs": 5000 }
 */
import {
  FRESH_WINDOW_MS,
  PREFETCH_CONCURRENCY,
  ROUTE_SCRIPT_TIMEOUT_MS,
  STALE_WINDOW_MS,
} from './constants.js';

export const ROUTER_CONFIG_FILE = 'switchyard.config.json';

export interface RouterConfig {
  prefetch: { freshMs: number; staleMs: number; concurrency: number };
  routeScriptTimeoutMs: number;
}

export const DEFAULT_ROUTER_CONFIG: RouterConfig = Object.freeze({
  prefetch: Object.freeze({
    freshMs: FRESH_WINDOW_MS,
    staleMs: STALE_WINDOW_MS,
    concurrency: PREFETCH_CONCURRENCY,
  }),
  routeScriptTimeoutMs: ROUTE_SCRIPT_TIMEOUT_MS,
});

/** A config file the app author has to fix; the message says what and where. */
export class RouterConfigError extends Error {
  override name = 'RouterConfigError';
}

/** The defaults with the file's values over them; anything unknown or out of range throws. */
export function parseRouterConfig(text: string, file: string): RouterConfig {
  const fail = (why: string): never => {
    throw new RouterConfigError(`${file}: ${why}`);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    fail(`not valid JSON (${(error as Error).message})`);
  }
  const top = objectOf(raw, 'the file', fail);
  onlyKeys(top, ['prefetch', 'routeScriptTimeoutMs'], '', fail);
  const prefetch = top.prefetch === undefined ? {} : objectOf(top.prefetch, '"prefetch"', fail);
  onlyKeys(prefetch, ['freshMs', 'staleMs', 'concurrency'], 'prefetch.', fail);

  const defaults = DEFAULT_ROUTER_CONFIG;
  const config: RouterConfig = {
    prefetch: {
      freshMs: numberOf(prefetch.freshMs, 'prefetch.freshMs', defaults.prefetch.freshMs, 0, fail),
      staleMs: numberOf(prefetch.staleMs, 'prefetch.staleMs', defaults.prefetch.staleMs, 0, fail),
      concurrency: numberOf(
        prefetch.concurrency,
        'prefetch.concurrency',
        defaults.prefetch.concurrency,
        1,
        fail,
      ),
    },
    routeScriptTimeoutMs: numberOf(
      top.routeScriptTimeoutMs,
      'routeScriptTimeoutMs',
      defaults.routeScriptTimeoutMs,
      1,
      fail,
    ),
  };
  if (!Number.isInteger(config.prefetch.concurrency)) fail('prefetch.concurrency must be a whole number');
  if (config.prefetch.staleMs < config.prefetch.freshMs) {
    fail('prefetch.staleMs must be at least prefetch.freshMs (an entry is fresh before it is stale)');
  }
  return config;
}

type Fail = (why: string) => never;

function objectOf(value: unknown, what: string, fail: Fail): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${what} must be an object`);
  return value as Record<string, unknown>;
}

function onlyKeys(value: Record<string, unknown>, known: string[], prefix: string, fail: Fail): void {
  const unknown = Object.keys(value).filter((key) => !known.includes(key));
  if (unknown.length > 0) {
    fail(`unknown setting ${unknown.map((k) => `"${prefix}${k}"`).join(', ')}; known: ${known.join(', ')}`);
  }
}

function numberOf(value: unknown, name: string, fallback: number, min: number, fail: Fail): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) {
    fail(`${name} must be a number of at least ${min}, got ${JSON.stringify(value)}`);
  }
  return value as number;
}
