/**
 * `switchyard start --workers 2` on the demo's build: two worker processes answer on one port,
 * a worker killed outright is replaced while the other keeps serving, SIGTERM ends the command
 * and every worker, a no-JS form's answer or a session signed by one worker is read by the
 * other, and six users setting their likes at once through both end exact on SQLite. On the
 * fixture app, whose start-up hook fails on demand: a replacement that cannot start is tried
 * again while the other worker serves. The evidence is the processes themselves, never a debug
 * header.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { getPhoto } from '../../src/lib/photos';
import { KEEPERS, setLikesAtOnce, signInThrough, USERS } from '../helpers/likes-at-once';
import { BUILDS } from './global-setup';
import { skipWithoutChromium } from './harness';

const TIMEOUT_MS = 60_000;
let running: ChildProcess | undefined;
let dataDir: string | undefined;

afterEach(() => {
  if (running?.exitCode === null) running.kill('SIGKILL');
  running = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first match of `pattern` in the output from `from` on. */
  waitFor: (pattern: RegExp, from?: number) => Promise<RegExpExecArray>;
  exit: Promise<number | null>;
}

function start(
  args: string[],
  { out = BUILDS.demo.out as string, env = {} as NodeJS.ProcessEnv } = {},
): Started {
  dataDir = mkdtempSync(join(tmpdir(), 'switchyard-workers-'));
  const child = spawn(process.execPath, ['bin/switchyard.js', 'start', '--out', out, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_SHUTDOWN_TIMEOUT_MS: '5000', ...env },
  });
  running = child;
  let text = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString();
    waiters.forEach((check) => check());
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => text,
    exit,
    waitFor: (pattern, from = 0) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = new RegExp(pattern.source, 'g');
          match.lastIndex = from;
          const found = match.exec(text);
          if (found) {
            waiters.delete(check);
            resolve(found);
          }
        };
        waiters.add(check);
        void exit.then(() => {
          if (waiters.delete(check)) reject(new Error(`exited before ${pattern}:\n${text}`));
        });
        check();
      }),
  };
}

/** The parent pid of `pid`, from /proc; undefined once the process is gone. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function statusOf(url: string): Promise<number> {
  return (await fetch(url, { headers: { connection: 'close' } })).status;
}

/** The TCP peers' ports of the sockets `pid` holds, with their state ('08' is CLOSE-WAIT). */
function tcpPeersOf(pid: number): { peerPort: number; state: string }[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith('socket:[')) inodes.add(target.slice('socket:['.length, -1));
    } catch {
      // Closed while the folder was read.
    }
  }
  const rows = ['tcp', 'tcp6'].flatMap((table) =>
    readFileSync(`/proc/net/${table}`, 'utf8').trim().split('\n').slice(1),
  );
  return rows
    .map((row) => row.trim().split(/\s+/))
    .filter((columns) => inodes.has(columns[9]!))
    .map((columns) => ({ peerPort: parseInt(columns[2]!.split(':')[1]!, 16), state: columns[3]! }));
}

/** Resolves once the process is stopped (state T), after a SIGSTOP. */
async function stopped(pid: number): Promise<void> {
  process.kill(pid, 'SIGSTOP');
  const state = () => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0];
  };
  for (let i = 0; i < 10_000 && state() !== 'T'; i++) await new Promise(setImmediate);
  expect(state()).toBe('T');
}

describe.skipIf(skipWithoutChromium)('switchyard start --workers', () => {
  test(
    'two workers on one port; one killed is replaced while the other serves; SIGTERM ends them all',
    { timeout: TIMEOUT_MS },
    async () => {
      // Trusted from its first millisecond: a worker killed after it listened is replaced at once.
      const server = start(['--port', '0', '--workers', '2'], { env: { SWITCHYARD_WORKER_STABLE_MS: '1' } });
      const [, first, second] = (
        await server.waitFor(/Worker (\d+) started[\s\S]*?Worker (\d+) started/)
      ).map(Number);
      // Both workers listen, and cluster gives them the one port.
      const port = (await server.waitFor(/serving http:\/\/localhost:(\d+)/))[1];
      const listening = () =>
        [...server.output().matchAll(/serving http:\/\/localhost:(\d+)/g)].map((m) => m[1]);
      await server.waitFor(/serving http:\/\/localhost:\d+[\s\S]*serving http:\/\/localhost:\d+/);
      expect(listening()).toEqual([port, port]);
      // The supervisor has seen both listen: one it had seen only start would be a failed start.
      await server.waitFor(new RegExp(`Worker ${first} listening`));
      await server.waitFor(new RegExp(`Worker ${second} listening`));
      expect([parentOf(first!), parentOf(second!)]).toEqual([server.child.pid, server.child.pid]);
      const url = `http://127.0.0.1:${port}/`;
      expect(await statusOf(url)).toBe(200);

      const mark = server.output().length;
      process.kill(first!, 'SIGKILL');
      await server.waitFor(new RegExp(`Worker ${first} exited \\(signal SIGKILL\\): starting another`), mark);
      // The other worker answers everything meanwhile.
      for (let i = 0; i < 6; i++) expect(await statusOf(url)).toBe(200);
      const third = Number((await server.waitFor(/Worker (\d+) started/, mark))[1]);
      expect(parentOf(third)).toBe(server.child.pid);
      expect(isAlive(first!)).toBe(false);
      await server.waitFor(new RegExp(`Worker ${third} listening`), mark);
      expect(await statusOf(url)).toBe(200);

      server.child.kill('SIGTERM');
      expect(await server.exit).toBe(0);
      expect([second!, third].filter(isAlive)).toEqual([]);
    },
  );

  test(
    "the workers share one secret: a no-JS form's answer and a session are read by either; six users' likes set at once through both end exact",
    { timeout: TIMEOUT_MS },
    async () => {
      const server = start(['--port', '0', '--workers', '2'], {
        env: { SWITCHYARD_ACTION_RATE_LIMIT: 'off' },
      });
      await server.waitFor(/serving http:\/\/localhost:\d+[\s\S]*serving http:\/\/localhost:\d+/);
      const base = `http://127.0.0.1:${(await server.waitFor(/serving http:\/\/localhost:(\d+)/))[1]}`;
      const page = await (await fetch(`${base}/photos/9`, { headers: { connection: 'close' } })).text();
      const form = /<form[^>]*class="comment-form"[^>]*>([\s\S]*?)<\/form>/.exec(page)![1]!;
      const action = /<form[^>]*class="comment-form"[^>]*action="([^"]+)"/.exec(page)![1]!;
      const fields = {
        $ACTION_KEY: /name="\$ACTION_KEY" value="([^"]+)"/.exec(form)![1]!,
        $bound: '[{"error":null,"posted":null,"values":{"author":"","text":""}}]',
        photoId: '9',
        author: 'Wen',
        text: '',
      };
      // Each request on a connection of its own, which cluster hands to the workers in turn.
      for (let i = 0; i < 6; i++) {
        const post = await fetch(base + action, {
          method: 'POST',
          redirect: 'manual',
          headers: { origin: base, referer: `${base}/photos/9`, connection: 'close' },
          body: new URLSearchParams(fields),
        });
        expect(post.status).toBe(303);
        const cookie = post.headers.get('set-cookie')!.split(';')[0]!;
        const back = await fetch(`${base}/photos/9`, { headers: { cookie, connection: 'close' } });
        expect(await back.text()).toMatch(/role="alert">Write a comment first\.<\/p>/);
      }

      // Signed in through whichever worker took the post, each user's session is read by both.
      const cookies: Record<string, string> = {};
      for (const handle of USERS) cookies[handle] = await signInThrough(base, handle);
      // Two copies of each post at once, on connections of their own: cluster hands them to both workers.
      const photo = '10';
      const answers = await setLikesAtOnce([base, base], photo, cookies);
      expect(answers.filter((a) => a.status !== 200 || a.value?.liked !== a.wanted)).toEqual([]);
      const db = new Database(join(dataDir!, 'switchyard-demo.db'), { readonly: true });
      try {
        const count = db.prepare('SELECT count FROM likes WHERE photo_id = ?').pluck().get(photo);
        expect(count).toBe(getPhoto(photo)!.likes + KEEPERS.length);
        const likers = db
          .prepare('SELECT handle FROM user_likes WHERE photo_id = ? ORDER BY handle')
          .pluck()
          .all(photo);
        expect(likers).toEqual([...KEEPERS].sort());
      } finally {
        db.close();
      }
    },
  );

  test(
    'once up, a replacement whose start-up fails is tried again while the other worker serves',
    { timeout: TIMEOUT_MS },
    async () => {
      const downDir = mkdtempSync(join(tmpdir(), 'switchyard-down-'));
      const down = join(downDir, 'database-down');
      const server = start(['--port', '0', '--workers', '2'], {
        out: BUILDS.basic.out,
        env: { FIXTURE_STARTUP_FAILS_WHILE: down, SWITCHYARD_WORKER_STABLE_MS: '1' },
      });
      const [, first, second] = (
        await server.waitFor(/Worker (\d+) started[\s\S]*?Worker (\d+) started/)
      ).map(Number);
      await server.waitFor(new RegExp(`Worker ${first} listening`));
      await server.waitFor(new RegExp(`Worker ${second} listening`));
      const url = `http://127.0.0.1:${(await server.waitFor(/serving http:\/\/localhost:(\d+)/))[1]}/`;

      // The database goes down, then a worker dies: its replacements cannot start.
      writeFileSync(down, '');
      const mark = server.output().length;
      process.kill(first!, 'SIGKILL');
      await server.waitFor(
        new RegExp(`Worker ${first} exited \\(signal SIGKILL\\): starting another\\.`),
        mark,
      );
      const failed =
        /Start-up failed: the database is down[\s\S]*exited \(code 1\) before it listened: starting another in 1000 ms/;
      await server.waitFor(failed, mark);
      // Each try waits longer than the last.
      await server.waitFor(/before it listened: starting another in 2000 ms/, mark);
      expect(server.output().slice(mark)).not.toMatch(/stopping/);
      expect(server.child.exitCode).toBeNull();
      expect(isAlive(second!)).toBe(true);
      for (let i = 0; i < 6; i++) expect(await statusOf(url)).toBe(200);

      // The database is back: the next try starts a worker that listens.
      const back = server.output().length;
      rmSync(downDir, { recursive: true });
      const third = Number((await server.waitFor(/Worker (\d+) listening/, back))[1]);
      expect(parentOf(third)).toBe(server.child.pid);
      expect(await statusOf(url)).toBe(200);

      server.child.kill('SIGTERM');
      expect(await server.exit).toBe(0);
      expect([second!, third].filter(isAlive)).toEqual([]);
    },
  );

  test(
    'a worker that dies soon after it listened is replaced after a pause that doubles: no crash loop',
    { timeout: TIMEOUT_MS },
    async () => {
      // Ten minutes: every death in this test is "soon after", whatever the machine's speed.
      const server = start(['--port', '0', '--workers', '2'], {
        env: { SWITCHYARD_WORKER_STABLE_MS: '600000' },
      });
      const [, first, second] = (
        await server.waitFor(/Worker (\d+) started[\s\S]*?Worker (\d+) started/)
      ).map(Number);
      await server.waitFor(new RegExp(`Worker ${first} listening`));
      await server.waitFor(new RegExp(`Worker ${second} listening`));
      const url = `http://127.0.0.1:${(await server.waitFor(/serving http:\/\/localhost:(\d+)/))[1]}/photos/1`;

      let mark = server.output().length;
      process.kill(first!, 'SIGKILL');
      await server.waitFor(
        new RegExp(
          `Worker ${first} exited \\(signal SIGKILL\\) soon after it listened: starting another in 1000 ms`,
        ),
        mark,
      );
      for (let i = 0; i < 4; i++) expect(await statusOf(url)).toBe(200);
      const third = Number((await server.waitFor(/Worker (\d+) started/, mark))[1]);
      await server.waitFor(new RegExp(`Worker ${third} listening`), mark);

      // It dies as soon too: the next pause is twice as long.
      mark = server.output().length;
      process.kill(third, 'SIGKILL');
      await server.waitFor(
        new RegExp(
          `Worker ${third} exited \\(signal SIGKILL\\) soon after it listened: starting another in 2000 ms`,
        ),
        mark,
      );
      expect(isAlive(second!)).toBe(true);
      expect(await statusOf(url)).toBe(200);

      server.child.kill('SIGTERM');
      expect(await server.exit).toBe(0);
      expect([second!].filter(isAlive)).toEqual([]);
    },
  );

  test(
    "a worker killed before it took the connection it was handed: the client's connection is closed, and this process keeps no copy",
    { timeout: TIMEOUT_MS },
    async () => {
      const server = start(['--port', '0', '--workers', '2']);
      const [, first, second] = (
        await server.waitFor(/Worker (\d+) started[\s\S]*?Worker (\d+) started/)
      ).map(Number);
      await server.waitFor(new RegExp(`Worker ${first} listening`));
      await server.waitFor(new RegExp(`Worker ${second} listening`));
      const port = Number((await server.waitFor(/serving http:\/\/localhost:(\d+)/))[1]);

      // A stopped worker cannot say it took a connection: the supervisor hands each worker one
      // in turn, so of two connections one waits on it. The other worker answers its own.
      await stopped(first!);
      const clients = [0, 1].map(() => {
        const socket: Socket = connect(port, '127.0.0.1');
        socket.on('error', () => {}); // A reset is one way of being closed.
        socket.write('GET /docs HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
        const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(answer)));
        return { socket, closed };
      });
      const answered = await Promise.race(clients.map((client) => client.closed));
      expect(answered).toMatch(/^HTTP\/1\.1 200 /);
      const waiting = clients.find((client) => !client.socket.closed)!;
      expect(waiting).toBeDefined();
      const peerPort = waiting.socket.localPort!;
      expect(tcpPeersOf(server.child.pid!)).toContainEqual({ peerPort, state: '01' });

      process.kill(first!, 'SIGKILL');
      let cap: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        waiting.closed.then(() => 'closed'),
        new Promise((resolve) => (cap = setTimeout(resolve, 20_000, 'still open after 20 s'))),
      ]);
      clearTimeout(cap);
      expect(outcome).toBe('closed');
      // Closed by the supervisor: it holds nothing for that client, in CLOSE-WAIT or otherwise.
      expect(tcpPeersOf(server.child.pid!).filter((socket) => socket.peerPort === peerPort)).toEqual([]);

      server.child.kill('SIGTERM');
      expect(await server.exit).toBe(0);
    },
  );

  test(
    'a worker that cannot listen ends the command with a message, not a restart loop',
    { timeout: TIMEOUT_MS },
    async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, resolve));
      const { port } = taken.address() as { port: number };
      try {
        const server = start(['--port', String(port), '--workers', '2']);
        expect(await server.exit).toBe(1);
        expect(server.output()).toMatch(/exited \(code 1\) before it listened: stopping/);
        expect(server.output().match(/Worker \d+ started/g)).toHaveLength(2);
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    },
  );
});
