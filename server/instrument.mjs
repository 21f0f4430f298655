/**
 * Starts the Sentry Node SDK before Express is imported: `npm start` runs
 * `node --import ./server/instrument.mjs bin/switchyard.js start`, and `switchyard start` imports
 * it first too (a second import is a no-op). With no `SENTRY_DSN` it does nothing: the SDK is not
 * even loaded, and no socket is opened.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { URL } from 'node:url';
import { parseCliArgs } from './cli-args.js';
import { readSentryConfig } from './sentry/sentry-config.mjs';
import { startSentry } from './sentry/sentry-init.mjs';
import { isUntracedPath } from './sentry/untraced-paths.mjs';

/** @type {ReturnType<typeof readSentryConfig>} */
let config;
try {
  config = readSentryConfig(process.env, undefined);
} catch (error) {
  // A setting the server cannot start with: one line that names it, before anything else runs.
  process.stderr.write(`${/** @type {Error} */ (error).message}\n`);
  process.exit(1);
}
if (config) {
  const Sentry = await import('@sentry/node');
  const { tunnelPath } = config;
  const outDir = outDirOfStart();
  startSentry(Sentry, {
    dsn: config.dsn,
    environment: config.environment,
    release: config.release ?? buildIdOfStart(outDir),
    sampleRate: config.sampleRate,
    tracesSampleRate: config.tracesSampleRate,
    untraced: isUntracedPath({ tunnelPath, clientDir: outDir && join(outDir, 'client') }),
    relayedTo: envelopeEndpoint(config.dsn),
  });
}

/**
 * Where the tunnel relays envelopes: `<origin><path>/api/<project>/envelope/`. A DSN that is no
 * URL gives none; the tunnel refuses it at start-up with a clearer message.
 * @param {string} dsn
 */
function envelopeEndpoint(dsn) {
  if (!URL.canParse(dsn)) return undefined;
  const { origin, pathname } = new URL(dsn);
  const slash = pathname.lastIndexOf('/');
  return `${origin}${pathname.slice(0, slash)}/api/${pathname.slice(slash + 1)}/envelope/`;
}

/** The build folder of `switchyard start [--out <dir>]`. */
function outDirOfStart() {
  const args = parseCliArgs(process.argv.slice(2), { cwd: process.cwd(), env: process.env });
  return args.ok && args.command === 'start' ? args.outDir : undefined;
}

/**
 * The build id of the build being started, the default release.
 * @param {string | undefined} outDir
 */
function buildIdOfStart(outDir) {
  if (outDir === undefined) return undefined;
  const file = join(outDir, 'build.json');
  if (!existsSync(file)) return undefined;
  return /** @type {{ buildId?: string }} */ (JSON.parse(readFileSync(file, 'utf8'))).buildId;
}
