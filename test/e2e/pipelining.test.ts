/**
 * A client that pipelines requests and never reads the answers, against `switchyard start` in a
 * child process: four connections each write 5,000 `GET /docs/reading-guide` at once (1.4 MB),
 * while another client asks for the page 100 times, one after another. Every one of its
 * requests is answered within 15 s, and the server's resident memory (`VmRSS`) stays within
 * 200 MB of where it was idle. Node hands the app every request it parses at once: without
 * `oneRequestAtATime` (bin/serve.js) this took the server past 600 MB in a second, and the other
 * client waited more than ten.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BUILDS } from './global-setup';
import { skipWithoutChromium } from './harness';

const MB = 1024;
const PAGE = '/docs/reading-guide';
const CONNECTIONS = 4;
const PIPELINED = 5_000;
const ANSWERS = 100;
const ANSWER_WAIT_MS = 15_000;

/** The child's resident memory in KiB, as the kernel counts it. */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

describe.skipIf(skipWithoutChromium || process.platform !== 'linux')('a client that pipelines', () => {
  let child: ChildProcess;
  let port: number;
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-pipelining-'));
  const attackers: Socket[] = [];

  beforeAll(async () => {
    // Started here rather than by the harness: the test reads the process's memory by its pid.
    child = spawn(process.execPath, ['bin/switchyard.js', 'start', '--port', '0', '--out', BUILDS.demo.out], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, SWITCHYARD_DATA_DIR: dataDir },
    });
    let out = '';
    port = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /serving http:\/\/localhost:(\d+)/.exec(out)?.[1];
        if (found) resolve(Number(found));
      });
      child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${out}`)));
    });
  });

  afterAll(async () => {
    attackers.forEach((socket) => socket.destroy());
    if (child?.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** One request on a connection of its own: its status, or a rejection past the wait. */
  const get = () =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: PAGE, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      });
      req.setTimeout(ANSWER_WAIT_MS, () =>
        req.destroy(new Error(`no answer within ${ANSWER_WAIT_MS} ms while a client pipelined`)),
      );
      req.on('error', reject);
      req.end();
    });

  test('bounds what it can make the server hold, and others are still answered', async () => {
    for (let i = 0; i < 20; i++) expect(await get()).toBe(200);
    const idle = rssOf(child.pid!);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 50);
    try {
      const requests = `GET ${PAGE} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`.repeat(PIPELINED);
      for (let i = 0; i < CONNECTIONS; i++) {
        const socket = connect(port, '127.0.0.1', () => socket.write(requests));
        // Never read: the answers pile up on the server's side of the connection.
        socket.pause();
        socket.on('error', () => undefined);
        attackers.push(socket);
      }
      for (let i = 0; i < ANSWERS; i++) expect(await get()).toBe(200);
    } finally {
      clearInterval(sampler);
    }
    expect(child.exitCode).toBeNull();
    expect((peak - idle) / MB).toBeLessThan(200);
  }, 60_000);
});
