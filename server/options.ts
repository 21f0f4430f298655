/**
 * `createApp` options, resolved once into a frozen, fully defaulted object.
 */
import { RENDER_DEADLINE_MS, SENTRY_TUNNEL_TIMEOUT_MS } from '../shared/constants';
import { NO_REPORTER, type ErrorReporter } from './error-reporter';
import type { ClientAssets, RouteModules } from './route-runtime';

export interface Logger {
  error(message: string, error?: unknown): void;
  info(message: string): void;
}

export interface RenderObserver {
  renderEnded?(outcome: RenderOutcome): void;
}
export type RenderOutcome = 'completed' | 'aborted' | 'timeout' | 'failed';

export interface SwitchyardOptions {
  /** Route modules by path relative to the app directory. */
  modules: RouteModules;
  /** The client build's assets per route file; none in tests that only read HTML. */
  assets?: ClientAssets;
  mode?: 'production' | 'development';
  /** The built client folder to serve (production). */
  staticDir?: string;
  /** Changes with every build; the client compares it to detect a redeploy. */
  buildId?: string;
  /** A render still running after this long is aborted and ends with its fallbacks. */
  renderDeadlineMs?: number;
  logger?: Logger;
  observer?: RenderObserver;
  /** Origins besides this one that `redirect()` may send users to (`https://docs.example.com`). */
  allowedRedirectOrigins?: readonly string[];
  sentry?: SentryOptions;
  /** Where real errors are reported (Sentry in production); signals and 4xx never are. */
  reporter?: ErrorReporter;
}

export interface SentryOptions {
  /** The only DSN browser envelopes are relayed to; without one nothing is sent (SPEC M3). */
  dsn?: string | undefined;
  /** Where browsers post envelopes: `/monitoring` by default. */
  tunnelPath?: string;
  /** The tunnel answers 504 when Sentry has not answered by then: 5000 ms by default. */
  tunnelTimeoutMs?: number;
}

export type ResolvedOptions = Readonly<{
  modules: RouteModules;
  assets: ClientAssets;
  mode: 'production' | 'development';
  staticDir: string | undefined;
  buildId: string;
  renderDeadlineMs: number;
  logger: Logger;
  observer: RenderObserver;
  allowedRedirectOrigins: readonly string[];
  reporter: ErrorReporter;
  sentry: Readonly<{ dsn: string | undefined; tunnelPath: string; tunnelTimeoutMs: number }>;
}>;

const consoleLogger: Logger = {
  error: (message, error) => console.error(message, error ?? ''),
  info: (message) => console.log(message),
};

export function resolveOptions(options: SwitchyardOptions): ResolvedOptions {
  const deadline = options.renderDeadlineMs ?? RENDER_DEADLINE_MS;
  if (!(deadline > 0)) throw new TypeError(`renderDeadlineMs must be a positive number, got ${deadline}`);
  return Object.freeze({
    modules: options.modules,
    assets: options.assets ?? { bootstrap: [], common: { scripts: [], styles: [] }, files: {} },
    mode: options.mode ?? 'production',
    staticDir: options.staticDir,
    buildId: options.buildId ?? 'development',
    renderDeadlineMs: deadline,
    logger: options.logger ?? consoleLogger,
    observer: options.observer ?? {},
    allowedRedirectOrigins: Object.freeze([...(options.allowedRedirectOrigins ?? [])]),
    reporter: options.reporter ?? NO_REPORTER,
    sentry: resolveSentryOptions(options.sentry ?? {}),
  });
}

function resolveSentryOptions(sentry: SentryOptions): ResolvedOptions['sentry'] {
  const tunnelPath = sentry.tunnelPath ?? '/monitoring';
  // Plain path segments only: Express would read `:name`, `*` or braces as a pattern.
  if (!/^(\/[\w.~-]+)+$/.test(tunnelPath)) {
    throw new TypeError(`sentry.tunnelPath must be a plain path such as /monitoring, got ${tunnelPath}`);
  }
  const tunnelTimeoutMs = sentry.tunnelTimeoutMs ?? SENTRY_TUNNEL_TIMEOUT_MS;
  if (!(tunnelTimeoutMs > 0)) {
    throw new TypeError(`sentry.tunnelTimeoutMs must be a positive number, got ${tunnelTimeoutMs}`);
  }
  // An empty SENTRY_DSN is how environments usually say "none".
  return Object.freeze({ dsn: sentry.dsn || undefined, tunnelPath, tunnelTimeoutMs });
}
