#!/usr/bin/env node
/**
 * The `switchyard` command: `dev`, `build`, `start`. `start` loads only the built server bundle
 * (no Vite, no TypeScript compiler); `dev` and `build` run the framework's TypeScript through tsx.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseCliArgs } from '../server/cli-args.js';
import { appErrorMessage } from './cli-errors.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = parseCliArgs(process.argv.slice(2), { cwd: process.cwd(), env: process.env });
if (!args.ok) {
  (args.help ? console.log : console.error)(args.message);
  process.exit(args.help ? 0 : 2);
}

// A build and the server that runs it are production, whatever the calling shell (or a test
// runner's NODE_ENV=test) says; otherwise React's slow development build would ship.
process.env.NODE_ENV = args.command === 'dev' ? 'development' : 'production';

if (args.command === 'start') {
  const entry = join(args.outDir, 'server/production.js');
  if (!existsSync(entry)) {
    console.error(`No production build in ${args.outDir}. Run \`switchyard build\` first.`);
    process.exit(1);
  }
  // Sentry before Express. `npm start` already did this with `node --import`, which
  // makes this a no-op; `npx switchyard start` gets it here, still before the bundle loads Express.
  // Without a DSN it would do nothing: it is not even loaded (start-up time).
  if (process.env.SENTRY_DSN?.trim()) await import('../server/instrument.mjs');
  const { readServerLimits, serve } = await import('./serve.js');
  const { optionsFromEnv } = await import('../server/env-options.js');
  let limits;
  try {
    limits = readServerLimits(process.env);
    // Checked here, before the start-up hook opens (and migrates) a database for a server that
    // would not start; the bundle reads them again when it makes the app.
    optionsFromEnv(process.env);
  } catch (error) {
    console.error(/** @type {Error} */ (error).message);
    process.exit(1);
  }
  // One process, the default, has no use for the cluster module: it is loaded only for more.
  if (args.workers > 1 && (await import('node:cluster')).default.isPrimary) {
    // This process only supervises: each worker runs this file again and serves below.
    const { superviseWorkers } = await import('./cluster.js');
    superviseWorkers({
      workers: args.workers,
      shutdownMs: limits.shutdownMs,
      stableMs: limits.workerStableMs,
    });
  } else {
    const { createProductionApp, register } = await import(pathToFileURL(entry).href);
    const { runStartUp } = await import('./start-up.js');
    const failed = await runStartUp(register, limits.startupMs);
    if (failed) {
      console.error(failed);
      process.exit(1);
    }
    serve(createProductionApp(args.outDir), { port: args.port, host: args.host, limits });
  }
} else {
  const { register } = await import('tsx/esm/api');
  // The server folder's compiler settings (JSX runtime included), wherever the command runs from.
  register({ tsconfig: join(root, 'server/tsconfig.json') });
  try {
    if (args.command === 'build') await build(args);
    else {
      const { startDevServer } = await import('../server/dev.ts');
      const server = await startDevServer({ appDir: args.appDir, port: args.port });
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      console.log(`Switchyard dev server on http://localhost:${port}`);
    }
  } catch (error) {
    const message = appErrorMessage(error);
    if (message === undefined) throw error;
    console.error(message);
    process.exit(1);
  }
}

/** @param {{ appDir: string, outDir: string, ifStale: boolean }} args */
async function build({ appDir, outDir, ifStale }) {
  const app = relative(root, appDir).split(sep).join('/');
  const sources = [
    appDir,
    ...['src', 'client', 'server', 'shared', 'package.json'].map((p) => join(root, p)),
  ];
  if (ifStale && isBuildFresh(outDir, app, sources)) {
    console.log(`Build of ${app} in ${outDir} is up to date.`);
    return;
  }
  const { buildApp } = await import('../server/build.ts');
  const info = await buildApp({ appDir, outDir });
  console.log(`Built ${info.buildId} into ${outDir} (app ${app})`);
  if (outDir !== join(root, 'dist')) {
    console.log(`Serve it with: switchyard start --out ${relative(process.cwd(), outDir) || '.'}`);
  }
}

/**
 * A build is fresh when it exists, is of this app, and no source file is newer than it.
 * @param {string} outDir
 * @param {string} app the app directory, relative to the repository, as `build.json` has it
 * @param {string[]} sources
 */
function isBuildFresh(outDir, app, sources) {
  const marker = join(outDir, 'build.json');
  if (!existsSync(marker)) return false;
  try {
    if (JSON.parse(readFileSync(marker, 'utf8')).appDir !== app) return false;
  } catch {
    return false;
  }
  const builtAt = statSync(marker).mtimeMs;
  /** @type {(path: string) => boolean} */
  const newer = (path) => {
    if (!existsSync(path)) return false;
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs > builtAt;
    return readdirSync(path).some((name) => name !== 'node_modules' && newer(join(path, name)));
  };
  return !sources.some(newer);
}
