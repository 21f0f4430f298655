/**
 * Memory stays flat under a mix of requests: a production server in a child process started
 * with `--expose-gc` answers 2,000 requests, and its heap after full collections ends within
 * 20 MB of where it was after a warm-up round. Each kind of request below once held on to
 * something per request (a streamed page whose loader reads `request` kept its whole response).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BUILDS } from './global-setup';
import { skipWithoutChromium } from './harness';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MB = 1024 * 1024;

describe.skipIf(skipWithoutChromium)('memory under load', () => {
  let child: ChildProcess;
  let base: string;
  const next = () => new Promise<Record<string, number>>((resolve) => child.once('message', resolve));
  const heap = async () => {
    const answer = next();
    child.send('heap');
    return (await answer).heap!;
  };

  beforeAll(async () => {
    child = fork('test/fixtures/heap-server.ts', [BUILDS.demo.out], {
      execArgv: ['--expose-gc', '--import', 'tsx'],
      env: { ...process.env, SWITCHYARD_DATA_DIR: mkdtempSync(join(tmpdir(), 'switchyard-heap-')) },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    base = `http://127.0.0.1:${(await next()).port}`;
  });
  afterAll(() => {
    child?.kill();
  });

  /** Reads the whole answer; its status is not the point here, only that one came. */
  const get = (path: string) => fetch(base + path).then((res) => res.arrayBuffer());
  /** Asks for a slow streamed page and goes away once its shell has arrived. */
  const abandon = (path: string) =>
    new Promise<void>((resolve, reject) => {
      const req = request(base + path, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', reject);
      req.end();
    });

  const mixed = (i: number): Promise<unknown> => {
    switch (i % 10) {
      case 0:
        return get(`/photos/${(i % 24) + 1}`);
      case 1:
        return get(`/photos/${(i % 24) + 1}?_sy=%2F`);
      case 2:
        return abandon(`/lab/slow?delay=5000&n=${i}`);
      case 3:
        return get(`/no/such/page/${i}-${'x'.repeat(200)}`);
      case 4:
        return get(`/docs/${'a'.repeat(5_000)}${i}`);
      default:
        return get(`/lab/slow?delay=0&n=${i}`);
    }
  };
  const run = async (from: number, count: number) => {
    for (let i = from; i < from + count; i += 10) {
      await Promise.all(Array.from({ length: 10 }, (_, k) => mixed(i + k)));
    }
  };

  test('2,000 mixed requests leave the heap within 20 MB of where it started', async () => {
    await run(0, 400);
    const before = await heap();
    await run(400, 2_000);
    const after = await heap();
    expect((after - before) / MB).toBeLessThan(20);
  }, 180_000);
});
