import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { commandUsage, parseCliArgs, USAGE } from '../../server/cli-args.js';
import { readServerLimits } from '../../bin/serve.js';

const cwd = process.cwd();
const parse = (argv: string[], env: Record<string, string> = {}) => parseCliArgs(argv, { cwd, env });

describe('switchyard arguments', () => {
  test('defaults: src/app, port 3000, dist', () => {
    expect(parse(['dev'])).toEqual({
      ok: true,
      command: 'dev',
      appDir: `${cwd}/src/app`,
      appIsDefault: true,
      port: 3000,
      host: undefined,
      outDir: `${cwd}/dist`,
      outIsDefault: true,
      ifStale: false,
      workers: 1,
    });
  });

  test('--host for start and dev: every interface without it', () => {
    expect(parse(['start', '--host', '127.0.0.1'])).toMatchObject({ ok: true, host: '127.0.0.1' });
    expect(parse(['dev', '--host', '127.0.0.1'])).toMatchObject({ ok: true, host: '127.0.0.1' });
    expect(parse(['start'])).toMatchObject({ ok: true, host: undefined });
    expect(parse(['build', '--host', '127.0.0.1'])).toMatchObject({ ok: false });
  });

  test('--workers: how many server processes start runs, 1 to 64', () => {
    expect(parse(['start', '--workers', '4'])).toMatchObject({ ok: true, workers: 4 });
    for (const bad of ['0', '65', '1.5', 'two', '-1']) {
      expect(parse(['start', '--workers', bad])).toEqual({
        ok: false,
        message: `--workers must be a whole number from 1 to 64, got "${bad}".`,
        exitCode: 2,
      });
    }
    expect(parse(['dev', '--workers', '2'])).toMatchObject({ ok: false, message: /not an option/ });
  });

  test('PORT from the environment, --port over it', () => {
    expect(parse(['start'], { PORT: '4000' })).toMatchObject({ ok: true, port: 4000 });
    expect(parse(['start', '--port', '5000'], { PORT: '4000' })).toMatchObject({ ok: true, port: 5000 });
  });

  test('--app and --out resolve against the working directory', () => {
    expect(parse(['build', '--app', 'test/fixtures/basic', '--out', 'out/x', '--if-stale'])).toMatchObject({
      ok: true,
      appDir: `${cwd}/test/fixtures/basic`,
      outDir: `${cwd}/out/x`,
      ifStale: true,
    });
  });

  test("another app's build goes to a folder of its own by default, never over the demo's dist", () => {
    expect(parse(['build', '--app', 'test/fixtures/basic'])).toMatchObject({
      outDir: `${cwd}/dist-test-fixtures-basic`,
    });
    expect(parse(['build', '--app', 'src/app/'])).toMatchObject({ outDir: `${cwd}/dist` });
    expect(parse(['start'])).toMatchObject({ outDir: `${cwd}/dist`, outIsDefault: true });
    expect(parse(['start', '--out', 'dist'])).toMatchObject({ outIsDefault: false });
  });

  describe('in an app of its own', () => {
    const inProject = (folders: string[], run: (root: string) => void) => {
      const root = mkdtempSync(join(tmpdir(), 'switchyard-args-'));
      try {
        for (const folder of folders) mkdirSync(join(root, folder), { recursive: true });
        run(root);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    };

    test('the route files are app/, or else src/app/, and their build goes to dist', () => {
      inProject(['app', 'src/app'], (root) => {
        expect(parseCliArgs(['build'], { cwd: root, env: {} })).toMatchObject({
          appDir: `${root}/app`,
          outDir: `${root}/dist`,
        });
        // Named as the default is, it is still the default: `start` then finds its build.
        expect(parseCliArgs(['build', '--app', 'app'], { cwd: root, env: {} })).toMatchObject({
          outDir: `${root}/dist`,
        });
        expect(parseCliArgs(['build', '--app', 'src/app'], { cwd: root, env: {} })).toMatchObject({
          outDir: `${root}/dist-src-app`,
        });
      });
      inProject(['src/app'], (root) => {
        expect(parseCliArgs(['dev'], { cwd: root, env: {} })).toMatchObject({ appDir: `${root}/src/app` });
      });
    });

    test('a folder with no app directory is told how to make one, exit 1', () => {
      inProject([], (root) => {
        expect(parseCliArgs(['dev'], { cwd: root, env: {} })).toEqual({
          ok: false,
          message: `No app directory in ${root}: the route files go in app/ (or src/app/). Create an app with \`npx switchyard init <dir>\`, or pass --app <dir>.`,
          exitCode: 1,
        });
        // start needs a build, not the sources.
        expect(parseCliArgs(['start'], { cwd: root, env: {} })).toMatchObject({ ok: true });
      });
    });
  });

  test('init takes one folder, and --force', () => {
    expect(parse(['init', 'my-app'])).toEqual({
      ok: true,
      command: 'init',
      target: `${cwd}/my-app`,
      force: false,
    });
    expect(parse(['init', '--force', 'x'])).toMatchObject({ ok: true, force: true, target: `${cwd}/x` });
    expect(parse(['init'])).toMatchObject({ ok: false, exitCode: 2, message: /^init takes one folder/ });
    expect(parse(['init', 'a', 'b'])).toMatchObject({ ok: false, exitCode: 2 });
    expect(parse(['init', 'a', '--port', '1'])).toMatchObject({ ok: false, exitCode: 2 });
  });

  test('--version, and --help for the command and for each subcommand', () => {
    expect(parse(['--version'])).toEqual({ ok: true, command: 'version' });
    expect(parse(['-v'])).toEqual({ ok: true, command: 'version' });
    expect(parse(['-h'])).toEqual({ ok: false, message: USAGE, exitCode: 0 });
    for (const command of ['init', 'dev', 'build', 'start'] as const) {
      const help = parse([command, '--help']);
      expect(help).toEqual({ ok: false, message: commandUsage(command), exitCode: 0 });
    }
    // Each command's help lists its own options and no other's.
    expect(commandUsage('start')).toContain('--workers <n>');
    expect(commandUsage('start')).not.toMatch(/^\s+--app/m);
    expect(commandUsage('build')).toContain('--if-stale');
    expect(commandUsage('init')).toMatch(/^Usage: switchyard init <dir> \[options\]/);
    expect(commandUsage('init')).toContain('--force');
  });

  test.each([
    [[], USAGE],
    [['serve'], 'Unknown command "serve".'],
    [['dev', '--out', 'x'], '"--out" is not an option of "switchyard dev".'],
    [['start', '--app', 'src/app'], '"--app" is not an option of "switchyard start".'],
    [['dev', '--port'], '--port needs a value.'],
    [['dev', '--port', 'abc'], 'The port must be a whole number from 0 to 65535, got "abc".'],
    [['dev', '--port', '70000'], 'The port must be a whole number from 0 to 65535, got "70000".'],
    [['dev', '--port', '-1'], 'The port must be a whole number from 0 to 65535, got "-1".'],
    [['dev', '--app', '../elsewhere'], `The app directory must be inside ${cwd}, got "../elsewhere".`],
    [['dev', '--app', '/etc'], `The app directory must be inside ${cwd}, got "/etc".`],
    [['build', '--app', 'no/such/dir'], 'The app directory "no/such/dir" does not exist.'],
  ])('%j is refused with a clear message', (argv, message) => {
    const result = parse(argv);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message.startsWith(message)).toBe(true);
  });

  test('--help prints the usage as help', () => {
    expect(parse(['--help'])).toEqual({ ok: false, message: USAGE, exitCode: 0 });
    // With no command at all it is a usage error.
    expect(parse([])).toEqual({ ok: false, message: USAGE, exitCode: 2 });
  });
});

describe('server limits from the environment', () => {
  test('defaults: 10 s to shut down, 30 s per request, 10 s for the headers, 30 s to start', () => {
    expect(readServerLimits({})).toEqual({
      shutdownMs: 10_000,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      startupMs: 30_000,
      workerStableMs: 10_000,
    });
  });

  test('each can be set, and a bad value stops the start naming the variable', () => {
    expect(readServerLimits({ SWITCHYARD_SHUTDOWN_TIMEOUT_MS: '2500' }).shutdownMs).toBe(2_500);
    expect(readServerLimits({ SWITCHYARD_STARTUP_TIMEOUT_MS: '5000' }).startupMs).toBe(5_000);
    for (const bad of ['0', '-1', '1.5', 'soon']) {
      expect(() => readServerLimits({ SWITCHYARD_REQUEST_TIMEOUT_MS: bad })).toThrow(
        'SWITCHYARD_REQUEST_TIMEOUT_MS',
      );
    }
  });
});
