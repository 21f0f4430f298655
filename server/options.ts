/**
 * `createApp` options, resolved once into a frozen, fully defaulted object.
 */
import { randomBytes } from 'node:crypto';
import { ACTION_RATE_LIMIT, RENDER_DEADLINE_MS, SENTRY_TUNNEL_TIMEOUT_MS } from '../shared/constants.js';
import type { ActionGuardOptions } from './actions/action-guard.js';
import type { RateLimit } from './actions/rate-limit.js';
import { NO_REPORTER, type ErrorReporter } from './sentry/error-reporter.js';
import { NO_TRACER, type RequestTracer } from './sentry/request-tracer.js';
import type { ClientAssets, RouteModules } from './render/route-runtime.js';
import { logStacksOnce } from './http/error-log.js';
import { MIN_SECRET_LENGTH } from './env-options.js';

/** Each action id with a loader of its module's export, made by the Vite plugin. */
export type ActionModules = Readonly<Record<string, () => Promise<unknown>>>;

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
  /** Where each request's work becomes spans (Sentry with tracing on); nothing by default. */
  tracer?: RequestTracer;
  /** Server actions by id (the Vite plugin's `virtual:switchyard/actions`). */
  actions?: ActionModules;
  /**
   * Who may call actions: pages of this origin, and of `allowedOrigins`. Set `trustProxy` (the
   * number of proxies in front of the server, `true` for one) only behind proxies that set
   * `X-Forwarded-Host`/`-Proto` themselves.
   */
  actionOrigins?: Partial<ActionGuardOptions>;
  /** The clock: `Date.now` unless a test passes its own. */
  now?: () => number;
  /**
   * Action calls one client (its address; with `trustProxy` N, the N-th `X-Forwarded-For` entry
   * from the end, the one the furthest trusted proxy wrote) may make: 30 per 10 s by default (none in development), `false` for no limit.
   */
  actionRateLimit?: RateLimit | false | undefined;
  /**
   * Signs what the server hands the browser to give back (a no-JS form's answer): the same on
   * every process and machine of a deployment (`SWITCHYARD_SECRET`). Without one, each process
   * makes its own at start-up. At least 32 characters (`openssl rand -base64 32`).
   */
  secret?: string | undefined;
}

export interface SentryOptions {
  /** The only DSN browser envelopes are relayed to; without one nothing is sent. */
  dsn?: string | undefined;
  /** Where browsers post envelopes: `/monitoring` by default. */
  tunnelPath?: string;
  /** The tunnel answers 504 when Sentry has not answered by then: 5000 ms by default. */
  tunnelTimeoutMs?: number;
  /** Told to the browser SDK with the DSN: `SENTRY_ENVIRONMENT`. */
  environment?: string | undefined;
  /** Told to the browser SDK with the DSN: `SENTRY_RELEASE`, the build id by default. */
  release?: string | undefined;
  /**
   * The share of page loads and navigations the browser traces (`SENTRY_TRACES_SAMPLE_RATE`), 0
   * by default: with 0 the browser loads no tracing code. A page load whose server request was
   * traced follows that request's decision.
   */
  tracesSampleRate?: number;
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
  tracer: RequestTracer;
  actions: ActionModules;
  actionOrigins: Readonly<ActionGuardOptions>;
  now: () => number;
  actionRateLimit: RateLimit | false;
  secret: string;
  sentry: Readonly<{
    dsn: string | undefined;
    tunnelPath: string;
    tunnelTimeoutMs: number;
    environment: string | undefined;
    release: string;
    tracesSampleRate: number;
  }>;
}>;

const consoleLogger: Logger = {
  error: logStacksOnce((message, error) => console.error(message, error ?? '')),
  info: (message) => console.log(message),
};

export function resolveOptions(options: SwitchyardOptions): ResolvedOptions {
  const deadline = options.renderDeadlineMs ?? RENDER_DEADLINE_MS;
  const buildId = options.buildId ?? 'development';
  if (!(deadline > 0)) throw new TypeError(`renderDeadlineMs must be a positive number, got ${deadline}`);
  // Its value never appears in the message: only how short it is.
  if (options.secret !== undefined && options.secret.length < MIN_SECRET_LENGTH) {
    throw new TypeError(
      `secret must be at least ${MIN_SECRET_LENGTH} characters (such as \`openssl rand -base64 32\`), got ${options.secret.length}`,
    );
  }
  return Object.freeze({
    modules: options.modules,
    assets: options.assets ?? { bootstrap: [], common: { scripts: [], styles: [] }, files: {} },
    mode: options.mode ?? 'production',
    staticDir: options.staticDir,
    buildId,
    renderDeadlineMs: deadline,
    logger: options.logger ?? consoleLogger,
    observer: options.observer ?? {},
    allowedRedirectOrigins: Object.freeze([...(options.allowedRedirectOrigins ?? [])]),
    reporter: options.reporter ?? NO_REPORTER,
    tracer: options.tracer ?? NO_TRACER,
    actions: options.actions ?? {},
    actionOrigins: Object.freeze({
      trustProxy: resolveTrustProxy(options.actionOrigins?.trustProxy),
      allowedOrigins: Object.freeze([...(options.actionOrigins?.allowedOrigins ?? [])]),
      allowedHosts: Object.freeze((options.actionOrigins?.allowedHosts ?? []).map((h) => h.toLowerCase())),
    }),
    now: options.now ?? Date.now,
    // Off in development unless asked for: there the only client is the app's author.
    actionRateLimit: resolveRateLimit(
      options.actionRateLimit ?? (options.mode === 'development' ? false : undefined),
    ),
    secret: options.secret ?? randomBytes(32).toString('base64url'),
    sentry: resolveSentryOptions(options.sentry ?? {}, buildId),
  });
}

/** The number of trusted proxies: `true` is one, as `SWITCHYARD_TRUST_PROXY=1` always was. */
function resolveTrustProxy(value: ActionGuardOptions['trustProxy'] | undefined): number {
  if (value === undefined || typeof value === 'boolean') return Number(value ?? false);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TypeError(
      `actionOrigins.trustProxy must be true, false or the number of proxies in front of the server, got ${value}`,
    );
  }
  return value;
}

function resolveRateLimit(limit: RateLimit | false | undefined): RateLimit | false {
  if (limit === false) return false;
  const { max, windowMs } = limit ?? ACTION_RATE_LIMIT;
  if (!(Number.isInteger(max) && max > 0 && windowMs > 0)) {
    throw new TypeError(
      `actionRateLimit needs a whole max above 0 and a windowMs above 0, got ${max} per ${windowMs}`,
    );
  }
  return Object.freeze({ max, windowMs });
}

function resolveSentryOptions(sentry: SentryOptions, buildId: string): ResolvedOptions['sentry'] {
  const tunnelPath = sentry.tunnelPath ?? '/monitoring';
  // Plain path segments only: Express would read `:name`, `*` or braces as a pattern.
  if (!/^(\/[\w.~-]+)+$/.test(tunnelPath)) {
    throw new TypeError(`sentry.tunnelPath must be a plain path such as /monitoring, got ${tunnelPath}`);
  }
  const tunnelTimeoutMs = sentry.tunnelTimeoutMs ?? SENTRY_TUNNEL_TIMEOUT_MS;
  if (!(tunnelTimeoutMs > 0)) {
    throw new TypeError(`sentry.tunnelTimeoutMs must be a positive number, got ${tunnelTimeoutMs}`);
  }
  const tracesSampleRate = sentry.tracesSampleRate ?? 0;
  if (!(tracesSampleRate >= 0 && tracesSampleRate <= 1)) {
    throw new TypeError(`sentry.tracesSampleRate must be a number from 0 to 1, got ${tracesSampleRate}`);
  }
  // An empty SENTRY_DSN is how environments usually say "none".
  return Object.freeze({
    dsn: sentry.dsn || undefined,
    tunnelPath,
    tunnelTimeoutMs,
    environment: sentry.environment || undefined,
    release: sentry.release || buildId,
    tracesSampleRate,
  });
}
