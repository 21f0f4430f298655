#!/usr/bin/env node
/**
 * The `switchyard` command: `init`, `dev`, `build`, `start`, `typegen`, run in the app's own folder (the
 * project root). `start` loads only the built server bundle (no Vite, no TypeScript compiler).
 *
 * In the installed package the framework's modules are compiled, in `lib/`; in a checkout of the
 * repository they are its TypeScript sources, which `dev` and `build` run through tsx.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { appErrorMessage } from './cli-errors.js';
import { buildsIn, reactProblem, rootLayoutProblem } from './project-checks.js';

const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const FROM_SOURCE = existsSync(join(PACKAGE_ROOT, 'server/dev.ts'));
const FRAMEWORK_DIR = FROM_SOURCE ? PACKAGE_ROOT : join(PACKAGE_ROOT, 'lib');
/** The URL of one of the framework's modules, named by its source path. @param {string} path */
const framework = (path) =>
  pathToFileURL(join(FRAMEWORK_DIR, FROM_SOURCE ? path : path.replace(/\.tsx?$/, '.js'))).href;

const root = process.cwd();
/** @type {typeof import('../server/cli-args.js')} */
const { parseCliArgs } = await import(framework('server/cli-args.js'));
const args = parseCliArgs(process.argv.slice(2), { cwd: root, env: process.env });
if (!args.ok) {
  (args.exitCode === 0 ? console.log : console.error)(args.message);
  process.exit(args.exitCode);
}
if (args.command === 'version') {
  console.log(JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).version);
  process.exit(0);
}
if (args.command === 'init') {
  const { initApp } = await import('./init.js');
  try {
    initApp({ target: args.target, force: args.force, cwd: root });
  } catch (error) {
    console.error(/** @type {Error} */ (error).message);
    process.exit(1);
  }
  process.exit(0);
}

const problem =
  reactProblem({ root, frameworkDir: FRAMEWORK_DIR }) ??
  (args.command === 'start' ? undefined : rootLayoutProblem(args.appDir, root));
if (problem) {
  console.error(problem);
  process.exit(1);
}

// A build and the server that runs it are production, whatever the calling shell (or a test
// runner's NODE_ENV=test) says; otherwise React's slow development build would ship.
process.env.NODE_ENV = args.command === 'dev' ? 'development' : 'production';

if (args.command === 'start') {
  const outDir = findBuild(args.outDir, args.outIsDefault);
  const entry = join(outDir, 'server/production.js');
  // Sentry before Express. `npm start` already did this with `node --import`, which
  // makes this a no-op; `npx switchyard start` gets it here, still before the bundle loads Express.
  // Without a DSN it would do nothing: it is not even loaded (start-up time).
  if (process.env.SENTRY_DSN?.trim()) await import(framework('server/instrument.mjs'));
  const { readServerLimits, serve } = await import('./serve.js');
  /** @type {typeof import('../server/env-options.js')} */
  const { optionsFromEnv } = await import(framework('server/env-options.js'));
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
    serve(createProductionApp(outDir), { port: args.port, host: args.host, limits });
  }
} else {
  if (FROM_SOURCE) {
    const { register } = await import('tsx/esm/api');
    // The server folder's compiler settings (JSX runtime included), wherever the command runs from.
    register({ tsconfig: join(PACKAGE_ROOT, 'server/tsconfig.json') });
  }
  try {
    if (args.command === 'build') await build(args);
    else if (args.command === 'typegen') await typegen(args.appDir);
    else {
      /** @type {typeof import('../server/dev.ts')} */
      const { startDevServer } = await import(framework('server/dev.ts'));
      const server = await startDevServer({ root, appDir: args.appDir, port: args.port, host: args.host });
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      console.log(`Switchyard dev server on http://localhost:${port}`);
    }
  } catch (error) {
    const { listenErrorMessage } = await import('./serve.js');
    const message =
      appErrorMessage(error) ??
      listenErrorMessage(/** @type {NodeJS.ErrnoException} */ (error), args.port, args.host);
    if (message === undefined) throw error;
    console.error(message);
    process.exit(1);
  }
}

/**
 * The build `start` serves: the one `--out` names, or without it `dist`, or else the only
 * `dist-*` build there is. None, or several to choose from, is a message naming what to do.
 * @param {string} outDir
 * @param {boolean} isDefault whether `--out` was left out
 * @returns {string}
 */
function findBuild(outDir, isDefault) {
  if (existsSync(join(outDir, 'server/production.js'))) return outDir;
  const builds = isDefault ? buildsIn(root) : [];
  if (builds.length === 1) {
    console.log(`Serving the build in ${builds[0]}.`);
    return join(root, /** @type {string} */ (builds[0]));
  }
  console.error(
    builds.length > 1
      ? `No production build in ${outDir}. Builds here: ${builds.join(', ')}; pick one with \`switchyard start --out <dir>\`.`
      : `No production build in ${outDir}. Run \`switchyard build\` first.`,
  );
  process.exit(1);
}

/** @param {{ appDir: string, outDir: string, ifStale: boolean }} args */
async function build({ appDir, outDir, ifStale }) {
  const app = relative(root, appDir).split(sep).join('/');
  // The app's sources (the folder above its routes: `src/` for `src/app`, or the project root),
  // its package.json, and the framework itself: an upgrade rebuilds too.
  const sources = [
    join(appDir, '..'),
    join(root, 'package.json'),
    ...(FROM_SOURCE ? ['client', 'server', 'shared'].map((p) => join(PACKAGE_ROOT, p)) : [FRAMEWORK_DIR]),
  ];
  if (ifStale && isBuildFresh(outDir, app, sources)) {
    console.log(`Build of ${app} in ${outDir} is up to date.`);
    return;
  }
  /** @type {typeof import('../server/build.ts')} */
  const { buildApp } = await import(framework('server/build.ts'));
  const info = await buildApp({ root, appDir, outDir });
  console.log(`Built ${info.buildId} into ${outDir} (app ${app})`);
  if (outDir !== join(root, 'dist')) {
    console.log(`Serve it with: switchyard start --out ${relative(root, outDir) || '.'}`);
  }
}

/**
 * Writes the route types of the app, from its route tree alone: no Vite, no bundling.
 * @param {string} appDir
 */
async function typegen(appDir) {
  /** @type {typeof import('../server/vite/scan-app-dir.ts')} */
  const { scanAppDir } = await import(framework('server/vite/scan-app-dir.ts'));
  /** @type {typeof import('../shared/route-tree.ts')} */
  const { buildRouteTree } = await import(framework('shared/route-tree.ts'));
  /** @type {typeof import('../server/typegen.ts')} */
  const { writeRouteTypes } = await import(framework('server/typegen.ts'));
  const { path, changed } = writeRouteTypes(root, appDir, buildRouteTree(scanAppDir(appDir)));
  console.log(`${changed ? 'Wrote' : 'Up to date:'} ${relative(root, path).split(sep).join('/')}`);
}

/**
 * A build is fresh when it exists, is of this app, and no source file is newer than it.
 * Dependencies, dot-folders and builds are not sources.
 * @param {string} outDir
 * @param {string} app the app directory, relative to the project root, as `build.json` has it
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
  const skip = (/** @type {string} */ name) =>
    name === 'node_modules' || name.startsWith('.') || name === 'dist' || name.startsWith('dist-');
  /** @type {(path: string) => boolean} */
  const newer = (path) => {
    if (!existsSync(path)) return false;
    const stat = statSync(path);
    if (!stat.isDirectory()) return stat.mtimeMs > builtAt;
    return readdirSync(path).some((name) => !skip(name) && newer(join(path, name)));
  };
  return !sources.some(newer);
}
