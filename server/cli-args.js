/**
 * Parses `switchyard <command> [options]`. Plain JavaScript so that `switchyard start` runs
 * with no compiler loaded. The working directory is the project root: the folder with the app's
 * `package.json`. Returns `{ ok: true, command, … }` or `{ ok: false, message, exitCode }`
 * (0: help or version, printed to stdout; 1: the project lacks something; 2: bad arguments);
 * it never exits or prints.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';

/** Where the route files are looked for without `--app`, in order (as Next.js looks). */
export const DEFAULT_APP_DIRS = ['app', 'src/app'];

export const USAGE = `Usage: switchyard <command> [options]

Commands:
  init <dir>  write a new app into <dir> (refuses a folder that is not empty, unless --force)
  dev         start the development server (Vite, HMR, React Fast Refresh)
  build       build the client and server bundles for production
  start       serve the production build
  typegen     write the route types into .switchyard/types (build and dev write them too)

Options:
  --app <dir>   the folder of route files, inside this folder (default: app, or src/app; dev, build, typegen)
  --port <n>    the port to listen on (default: $PORT or 3000; dev and start)
  --host <addr> the address to listen on (default: every interface; dev and start)
  --workers <n> server processes sharing the port, 1 to 64 (default: 1; start)
  --out <dir>   the build directory (default: dist, or dist-<app> for another --app; build and start)
  --if-stale    build only when the sources are newer than the last build (build)
  --force       write into a folder that is not empty (init)
  -h, --help    show this message, or a command's (switchyard <command> --help)
  -v, --version show the version

Run it in the app's own folder: that folder is Vite's root, and its public/, vite.config.*
and dist/ are the app's.`;

/** Each command: what it does, and its options' lines from the usage above. */
const COMMANDS = {
  init: { about: 'Write a new app, ready for npm install, into <dir>.', flags: ['--force'] },
  dev: {
    about: 'Start the development server (Vite, HMR, React Fast Refresh).',
    flags: ['--app', '--port', '--host'],
  },
  build: {
    about: 'Build the client and server bundles for production.',
    flags: ['--app', '--out', '--if-stale'],
  },
  start: {
    about: 'Serve a production build (never loads Vite).',
    flags: ['--port', '--host', '--out', '--workers'],
  },
  typegen: {
    about: 'Write the route types into .switchyard/types, for `switchyard typegen && tsc --noEmit`.',
    flags: ['--app'],
  },
};
const SWITCHES = new Set(['--if-stale', '--force']);

/** More processes than this only share the same cores: use more machines instead. */
const MAX_WORKERS = 64;

/** @param {keyof typeof COMMANDS} command */
export function commandUsage(command) {
  const { about, flags } = COMMANDS[command];
  const lines = USAGE.split('\n').filter((line) => flags.some((flag) => line.trimStart().startsWith(flag)));
  const positional = command === 'init' ? ' <dir>' : '';
  return `Usage: switchyard ${command}${positional} [options]\n\n${about}\n\nOptions:\n${lines.join('\n')}\n  -h, --help    show this message`;
}

/**
 * @typedef {{ ok: false, message: string, exitCode: 0 | 1 | 2 }} Refusal
 * @typedef {{ ok: true, command: 'version' }} VersionRequest
 * @typedef {{ ok: true, command: 'init', target: string, force: boolean }} InitRequest
 * @typedef {{ ok: true, command: 'dev' | 'build' | 'start' | 'typegen', appDir: string, appIsDefault: boolean, port: number, host: string | undefined, outDir: string, outIsDefault: boolean, ifStale: boolean, workers: number }} ServeRequest
 */

/**
 * @param {string[]} argv the arguments after `switchyard`
 * @param {{ cwd: string, env: Record<string, string | undefined> }} context
 * @returns {Refusal | VersionRequest | InitRequest | ServeRequest}
 */
export function parseCliArgs(argv, { cwd, env }) {
  const [command, ...rest] = argv;
  if (command === undefined) return { ok: false, message: USAGE, exitCode: 2 };
  if (command === '-h' || command === '--help') return { ok: false, message: USAGE, exitCode: 0 };
  if (command === '-v' || command === '--version') return { ok: true, command: 'version' };
  if (!Object.hasOwn(COMMANDS, command))
    return { ok: false, message: `Unknown command "${command}".\n\n${USAGE}`, exitCode: 2 };
  const name = /** @type {keyof typeof COMMANDS} */ (command);
  if (rest.includes('-h') || rest.includes('--help'))
    return { ok: false, message: commandUsage(name), exitCode: 0 };
  const allowed = COMMANDS[name].flags;
  /** @type {Record<string, string | true>} */
  const flags = {};
  /** @type {string[]} */
  const positional = [];
  for (let i = 0; i < rest.length; i++) {
    const flag = /** @type {string} */ (rest[i]);
    if (name === 'init' && !flag.startsWith('-')) {
      positional.push(flag);
      continue;
    }
    if (!allowed.includes(flag)) {
      return {
        ok: false,
        message: `"${flag}" is not an option of "switchyard ${name}".\n\n${commandUsage(name)}`,
        exitCode: 2,
      };
    }
    if (SWITCHES.has(flag)) {
      flags[flag] = true;
      continue;
    }
    const value = rest[++i];
    if (value === undefined || value.startsWith('--'))
      return { ok: false, message: `${flag} needs a value.\n\n${commandUsage(name)}`, exitCode: 2 };
    flags[flag] = value;
  }

  if (name === 'init') {
    if (positional.length !== 1) {
      return {
        ok: false,
        message: `init takes one folder to write the app into.\n\n${commandUsage('init')}`,
        exitCode: 2,
      };
    }
    return {
      ok: true,
      command: 'init',
      target: resolve(cwd, /** @type {string} */ (positional[0])),
      force: flags['--force'] === true,
    };
  }

  const portText = /** @type {string | undefined} */ (flags['--port']) ?? env.PORT ?? '3000';
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) {
    return {
      ok: false,
      message: `The port must be a whole number from 0 to 65535, got "${portText}".`,
      exitCode: 2,
    };
  }

  const workersText = /** @type {string | undefined} */ (flags['--workers']) ?? '1';
  const workers = Number(workersText);
  if (!/^\d+$/.test(workersText) || workers < 1 || workers > MAX_WORKERS) {
    return {
      ok: false,
      message: `--workers must be a whole number from 1 to ${MAX_WORKERS}, got "${workersText}".`,
      exitCode: 2,
    };
  }

  const appFlag = /** @type {string | undefined} */ (flags['--app']);
  const defaultApp = DEFAULT_APP_DIRS.find((dir) => isDirectory(join(cwd, dir)));
  const appDir = resolve(cwd, appFlag ?? defaultApp ?? 'app');
  const fromRoot = relative(cwd, appDir);
  if (fromRoot.startsWith('..') || isAbsolute(fromRoot)) {
    return { ok: false, message: `The app directory must be inside ${cwd}, got "${appFlag}".`, exitCode: 2 };
  }
  if (name !== 'start' && !isDirectory(appDir)) {
    return {
      ok: false,
      message:
        appFlag === undefined
          ? `No app directory in ${cwd}: the route files go in app/ (or src/app/). Create an app with \`npx switchyard init <dir>\`, or pass --app <dir>.`
          : `The app directory "${fromRoot}" does not exist.`,
      exitCode: appFlag === undefined ? 1 : 2,
    };
  }
  const appIsDefault = defaultApp !== undefined && appDir === resolve(cwd, defaultApp);
  const outFlag = /** @type {string | undefined} */ (flags['--out']);
  const outDir = resolve(
    cwd,
    outFlag ?? (appIsDefault || appFlag === undefined ? 'dist' : defaultOutDir(fromRoot)),
  );
  return {
    ok: true,
    command: name,
    appDir,
    appIsDefault,
    port,
    host: /** @type {string | undefined} */ (flags['--host']),
    outDir,
    outIsDefault: outFlag === undefined,
    ifStale: flags['--if-stale'] === true,
    workers,
  };
}

/**
 * Where a build of an app other than the project's own goes without `--out`: a folder of its
 * own (`test/fixtures/basic` → `dist-test-fixtures-basic`), so that building it never replaces
 * the app's `dist`.
 * @param {string} app the app directory, relative to the working directory
 */
export function defaultOutDir(app) {
  return `dist-${app
    .split(/[\\/]+/)
    .filter(Boolean)
    .join('-')}`;
}

/** @param {string} path */
function isDirectory(path) {
  return existsSync(path) && statSync(path).isDirectory();
}
