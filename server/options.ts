/**
 * `createApp` options, resolved once into a frozen, fully defaulted object.
 */
import { RENDER_DEADLINE_MS } from '../shared/constants';
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
  });
}
