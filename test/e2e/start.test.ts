/**
 * `switchyard start` as an operator meets it, in a child process on 127.0.0.1: a shutdown that
 * ends by its deadline though a client trickles a body, its own header timeout, a clear message
 * when the port is taken, and `--host` printed as it is listened on. Each wait is generous: the
 * limits under test are a second, the waits thirty.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { actionUrl } from '../../shared/actions';
import { listenOnLoopback } from '../helpers/loopback-server';
import { freePort } from '../helpers/postgres';
import { BUILDS } from './global-setup';
import { skipWithoutChromium } from './harness';

const WAIT_MS = 30_000;
const children: ChildProcess[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  sockets.splice(0).forEach((socket) => socket.destroy());
  children.splice(0).forEach((child) => child.exitCode === null && child.kill('SIGKILL'));
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(args: string[], env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(process.execPath, ['bin/switchyard.js', 'start', '--out', BUILDS.demo.out, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SWITCHYARD_DATA_DIR: mkdtempSync(join(tmpdir(), 'switchyard-start-')), ...env },
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

async function until<T>(what: () => T | undefined, description: string): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = what();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const portOf = (server: Started) =>
  until(() => /serving http:\/\/[^\s]+:(\d+)/.exec(server.output())?.[1], 'the banner').then(Number);

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
    sockets.push(socket);
  });
}

describe.skipIf(skipWithoutChromium)('switchyard start', { timeout: 2 * WAIT_MS }, () => {
  test('SIGTERM with a client trickling an action body: exits by the shutdown deadline', async () => {
    const server = start(['--port', '0'], { SWITCHYARD_SHUTDOWN_TIMEOUT_MS: '1000' });
    const port = await portOf(server);
    const socket = await openSocket(port);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    // `Expect: 100-continue` makes the server say when it has the head: the request is then in flight.
    socket.write(
      `POST ${actionUrl(actionId('lib/actions.ts', 'setLiked'))} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Origin: http://127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
        'Content-Length: 1000\r\nExpect: 100-continue\r\n\r\n',
    );
    await until(() => (received.includes('100 Continue') ? true : undefined), 'the 100 Continue');
    socket.write('ph');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Shutdown deadline passed');
    await closed;
    expect(received).not.toContain('303');
  });

  test('an idle server exits at once on SIGTERM, with code 0', async () => {
    const server = start(['--port', '0']);
    await portOf(server);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  test('a client that never finishes its headers is cut off by our own header timeout', async () => {
    const server = start(['--port', '0'], { SWITCHYARD_HEADERS_TIMEOUT_MS: '1000' });
    const socket = await openSocket(await portOf(server));
    const closed = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('close', () => resolve(text));
    });
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(await closed).toMatch(/^HTTP\/1\.1 408/);
  });

  test('a port already in use: a clear message and exit code 1', async () => {
    const taken = await listenOnLoopback((_req, res) => res.end());
    try {
      const server = start(['--port', String(taken.port), '--host', '127.0.0.1']);
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain(`Port ${taken.port} is already in use (127.0.0.1)`);
      expect(server.output()).not.toContain('TypeError');
    } finally {
      await taken.close();
    }
  });

  test.each([[[]], [['--workers', '2']]])(
    'DATABASE_URL on a closed port (%j): one line naming host and port, no password, exit code 1',
    async (extra) => {
      const port = await freePort();
      const server = start(['--port', '0', ...extra], {
        DATABASE_URL: `postgres://demo:pw-not-to-print@127.0.0.1:${port}/demo?password=pw-not-to-print`,
      });
      expect(await server.exited).toBe(1);
      const output = server.output();
      const failures = output.split('\n').filter((line) => line.includes('Start-up failed'));
      expect(failures.length).toBeGreaterThanOrEqual(1);
      expect(failures[0]).toContain(`127.0.0.1:${port}`);
      expect(failures[0]).toContain('ECONNREFUSED');
      expect(output).not.toContain('pw-not-to-print');
      expect(output).not.toMatch(/serving http| {4}at /);
    },
  );

  test.each([[[]], [['--workers', '2']]])(
    'a SWITCHYARD_SECRET too short (%j): one line naming it, exit code 1, the database never opened',
    async (extra) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-start-'));
      const server = start(['--port', '0', ...extra], {
        SWITCHYARD_DATA_DIR: dataDir,
        SWITCHYARD_SECRET: 'too-short-to-sign-with',
      });
      expect(await server.exited).toBe(1);
      expect(server.output().trim().split('\n')).toEqual([
        expect.stringMatching(/^SWITCHYARD_SECRET must be at least 32 characters .*got 22$/),
      ]);
      // The demo's start-up hook would have made its SQLite database here.
      expect(readdirSync(dataDir)).toEqual([]);
    },
  );

  test.each([
    [{ SENTRY_DSN: 'garbage' }, /^SENTRY_DSN must be an http\(s\) Sentry DSN/],
    [
      { SENTRY_DSN: 'https://key@127.0.0.1:9/1', SENTRY_TRACES_SAMPLE_RATE: 'abc' },
      /^SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1, got "abc"\.$/,
    ],
  ])(
    'a Sentry setting it cannot start with (%j): one line naming it, exit code 1, the database never opened',
    async (env, line) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-start-'));
      const server = start(['--port', '0'], { SWITCHYARD_DATA_DIR: dataDir, ...env });
      expect(await server.exited).toBe(1);
      expect(server.output().trim().split('\n')).toEqual([expect.stringMatching(line)]);
      expect(readdirSync(dataDir)).toEqual([]);
    },
  );

  test('--host 127.0.0.1 listens there and says so', async () => {
    const server = start(['--port', '0', '--host', '127.0.0.1']);
    const port = await portOf(server);
    expect(server.output()).toContain(`Switchyard serving http://127.0.0.1:${port}`);
    expect((await fetch(`http://127.0.0.1:${port}/photos/1`)).status).toBe(200);
  });

  test('one process with no Sentry DSN loads neither the Sentry start-up module nor the cluster module', async () => {
    const record = join(mkdtempSync(join(tmpdir(), 'switchyard-imports-')), 'imports.txt');
    const server = start(['--port', '0'], {
      SENTRY_DSN: '',
      RECORD_IMPORTS: record,
      NODE_OPTIONS: '--import ./test/fixtures/record-imports/register.mjs',
    });
    const port = await portOf(server);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    const imported = readFileSync(record, 'utf8').split('\n');
    // The record works: the server bundle itself is in it.
    expect(imported.some((url) => url.endsWith('/server/production.js'))).toBe(true);
    expect(imported.filter((url) => /instrument\.mjs|@sentry|node:cluster|\/vite\//.test(url))).toEqual([]);
  });
});
