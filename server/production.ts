/**
 * The production server entry. `switchyard build` bundles it with the app's route modules;
 * `switchyard start` imports the bundle. Nothing here imports `vite`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// A virtual module made by the Switchyard Vite plugin at build time.
import { modules } from 'virtual:switchyard/routes';
import { actions } from 'virtual:switchyard/actions';
// The app's start-up hook, if it has one: `switchyard start` awaits it before listening.
export { register } from 'virtual:switchyard/instrumentation';
import { assetsFromManifest, type Manifest } from './render/client-manifest.js';
import { createApp, type SwitchyardApp } from './create-app.js';
import { optionsFromEnv } from './env-options.js';
import type { RouteModules } from './render/route-runtime.js';
import { readSentryConfig } from './sentry/sentry-config.mjs';
import { sentryReporter } from './sentry/sentry-reporter.js';
import { sentryTracer } from './sentry/sentry-tracer.js';

// The SDK is loaded only with a DSN (it costs start-up time); server/instrument.mjs initialised it.
const sentry = readSentryConfig(process.env, undefined);
const sentrySdk = sentry && (await import('@sentry/node'));

export interface BuildInfo {
  buildId: string;
  builtAt: string;
  /** The app directory relative to the project root. */
  appDir: string;
  clientEntry: string;
}

export function createProductionApp(outDir: string): SwitchyardApp {
  const info = JSON.parse(readFileSync(join(outDir, 'build.json'), 'utf8')) as BuildInfo;
  const manifest = JSON.parse(readFileSync(join(outDir, 'client/.vite/manifest.json'), 'utf8')) as Manifest;
  const routeModules = modules as RouteModules;
  const assets = assetsFromManifest(manifest, info.appDir, Object.keys(routeModules), info.clientEntry);
  return createApp({
    modules: routeModules,
    assets,
    mode: 'production',
    staticDir: join(outDir, 'client'),
    buildId: info.buildId,
    actions,
    ...optionsFromEnv(process.env),
    ...(sentry && sentrySdk
      ? {
          // Without SENTRY_RELEASE, createApp makes the build id the release, as instrument.mjs does.
          sentry: {
            dsn: sentry.dsn,
            tunnelPath: sentry.tunnelPath,
            environment: sentry.environment,
            release: sentry.release,
            tracesSampleRate: sentry.tracesSampleRate,
          },
          reporter: sentryReporter(sentrySdk),
          // Decided once: with a rate of 0 no request runs any span code.
          ...(sentry.tracesSampleRate > 0 ? { tracer: sentryTracer(sentrySdk) } : {}),
        }
      : {}),
  });
}
