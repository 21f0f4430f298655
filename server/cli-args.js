/**
 * Parses `switchyard <command> [options]`. Plain JavaScript so that `switchyard start` runs
 * with no compiler loaded. Returns `{ ok: true, command, appDir, port, host, outDir, ifStale, workers }` or
 * `{ ok: false, message }`; it never exits or prints.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';

export const USAGE = `Usage: switchyard <command> [options]

Commands:
  dev     start the development server (Vite, HMR, React Fast Refresh)
  build   build the client and server bundles for production
  start   serve the production build

Options:
  --app <dir>   the app directory, inside this repository (default: src/app; dev and build)
  --port <n>    the port to listen on (default: $PORT or 3000; dev and start)
  --host <addr> the address to listen on (default: every interface; start)
  --workers <n> server processes sharing the port, 1 to 64 (default: 1; start)
  --out <dir>   the build directory (default: dist, or dist-<app> for another --app; build and start)
  --if-stale    build only when the sources are newer than the last build (build)
  -h, --help    show this message`;

/** More processes than this only share the same cores: use more machines instead. */
const MAX_WORKERS = 64;

const COMMANDS = {
  dev: ['--app', '--port'],
  build: ['--app', '--out', '--if-stale'],
  start: ['--port', '--host', '--out', '--workers'],
};

/**
 * @param {string[]} argv the arguments after `switchyard`
 * @param {{ cwd: string, env: Record<string, string | undefined> }} context
 * @returns {{ ok: true, command: 'dev' | 'build' | 'start', appDir: string, port: number, host: string | undefined, outDir: string, ifStale: boolean, workers: number } | { ok: false, message: string, help?: boolean }}
 */
export function parseCliArgs(argv, { cwd, env }) {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help') {
    return { ok: false, message: USAGE, help: command !== undefined };
  }
  if (!Object.hasOwn(COMMANDS, command))
    return { ok: false, message: `Unknown command "${command}".\n\n${USAGE}` };
  const allowed = COMMANDS[/** @type {keyof typeof COMMANDS} */ (command)];
  /** @type {Record<string, string | true>} */
  const flags = {};
  for (let i = 0; i < rest.length; i++) {
    const flag = /** @type {string} */ (rest[i]);
    if (!allowed.includes(flag)) {
      return { ok: false, message: `"${flag}" is not an option of "switchyard ${command}".\n\n${USAGE}` };
    }
    if (flag === '--if-stale') {
      flags[flag] = true;
      continue;
    }
    const value = rest[++i];
    if (value === undefined || value.startsWith('--'))
      return { ok: false, message: `${flag} needs a value.\n\n${USAGE}` };
    flags[flag] = value;
  }

  const portText = /** @type {string | undefined} */ (flags['--port']) ?? env.PORT ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    return { ok: false, message: `The port must be a whole number from 0 to 65535, got "${portText}".` };
  }

  const workersText = /** @type {string | undefined} */ (flags['--workers']) ?? '1';
  const workers = Number(workersText);
  if (!/^\d+$/.test(workersText) || workers < 1 || workers > MAX_WORKERS) {
    return {
      ok: false,
      message: `--workers must be a whole number from 1 to ${MAX_WORKERS}, got "${workersText}".`,
    };
  }

  const appDir = resolve(cwd, /** @type {string | undefined} */ (flags['--app']) ?? 'src/app');
  const fromRoot = relative(cwd, appDir);
  if (fromRoot.startsWith('..') || isAbsolute(fromRoot)) {
    return { ok: false, message: `The app directory must be inside ${cwd}, got "${flags['--app']}".` };
  }
  if (command !== 'start' && (!existsSync(appDir) || !statSync(appDir).isDirectory())) {
    return { ok: false, message: `The app directory "${fromRoot}" does not exist.` };
  }
  const outDir = resolve(cwd, /** @type {string | undefined} */ (flags['--out']) ?? defaultOutDir(fromRoot));
  return {
    ok: true,
    command: /** @type {'dev' | 'build' | 'start'} */ (command),
    appDir,
    port,
    host: /** @type {string | undefined} */ (flags['--host']),
    outDir,
    ifStale: flags['--if-stale'] === true,
    workers,
  };
}

/**
 * Where a build goes without `--out`: `dist` for the demo, a folder of its own for any other
 * app (`my-app` → `dist-my-app`), so that building it never replaces the demo's build.
 * @param {string} app the app directory, relative to the working directory
 */
export function defaultOutDir(app) {
  const path = app.split(/[\\/]+/).join('/');
  return path === 'src/app' ? 'dist' : `dist-${path.replaceAll('/', '-')}`;
}
