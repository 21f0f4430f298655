import { describe, expect, test } from 'vitest';
import { parseCliArgs, USAGE } from '../../server/cli-args.js';
import { readServerLimits } from '../../bin/serve.js';

const cwd = process.cwd();
const parse = (argv: string[], env: Record<string, string> = {}) => parseCliArgs(argv, { cwd, env });

describe('switchyard arguments', () => {
  test('defaults: src/app, port 3000, dist', () => {
    expect(parse(['dev'])).toEqual({
      ok: true,
      command: 'dev',
      appDir: `${cwd}/src/app`,
      port: 3000,
      outDir: `${cwd}/dist`,
      ifStale: false,
      workers: 1,
    });
  });

  test('--host for start: every interface without it', () => {
    expect(parse(['start', '--host', '127.0.0.1'])).toMatchObject({ ok: true, host: '127.0.0.1' });
    expect(parse(['start'])).toMatchObject({ ok: true, host: undefined });
    expect(parse(['build', '--host', '127.0.0.1'])).toMatchObject({ ok: false });
  });

  test('--workers: how many server processes start runs, 1 to 64', () => {
    expect(parse(['start', '--workers', '4'])).toMatchObject({ ok: true, workers: 4 });
    for (const bad of ['0', '65', '1.5', 'two', '-1']) {
      expect(parse(['start', '--workers', bad])).toEqual({
        ok: false,
        message: `--workers must be a whole number from 1 to 64, got "${bad}".`,
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
    expect(parse(['start'])).toMatchObject({ outDir: `${cwd}/dist` });
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
    expect(parse(['--help'])).toEqual({ ok: false, message: USAGE, help: true });
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
