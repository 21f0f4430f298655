/**
 * Likes on SQLite from two processes on one file: all six users, signed in in both, set their
 * likes of one photo at once, step after step (test/helpers/like-storm.ts), and the count ends
 * exact: no like lost, none counted twice, none taken away twice.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { openStore, type Store } from '../../src/lib/store.server';
import { expected, stormResult } from '../helpers/like-storm';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = fileURLToPath(new URL('../fixtures/like-storm-child.ts', import.meta.url));
/** Time for a child to start tsx and open the store, then for the storm; it is killed after. */
const CHILD_TIMEOUT_MS = 60_000;
const PHOTO = '7';
/** Each process sets all six likes this many times (odd: they end as the first step set them). */
const STEPS = 101;

let dir: string | undefined;
let store: Store | undefined;
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await store?.close();
  store = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A child's process and a way to wait for a line of its output; any other end rejects. */
function startChild(): { child: ChildProcessWithoutNullStreams; says: (line: string) => Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir!, PHOTO, String(STEPS)], {
    cwd: ROOT,
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const says = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!stdout.includes(`${line}\n`)) return;
        cleanUp();
        resolve();
      };
      const exited = (code: number | null) => {
        cleanUp();
        reject(new Error(`the child exited (${code}) before it said "${line}"\n${stderr}`));
      };
      const timer = setTimeout(() => {
        cleanUp();
        reject(new Error(`the child did not say "${line}" in ${CHILD_TIMEOUT_MS} ms\n${stderr}`));
      }, CHILD_TIMEOUT_MS);
      const cleanUp = () => {
        clearTimeout(timer);
        child.stdout.off('data', check);
        child.off('exit', exited);
      };
      child.stdout.on('data', check);
      child.once('exit', exited);
      check();
    });
  return { child, says };
}

test(
  'six users signed in through two processes, setting likes of one photo at once: the count is exact',
  { timeout: 3 * CHILD_TIMEOUT_MS },
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'switchyard-storm-'));
    // Created, migrated and seeded before the storm: both processes meet only in their likes.
    await openStore(dir).close();
    const both = [startChild(), startChild()];
    await Promise.all(both.map(({ says }) => says('ready')));
    for (const { child } of both) child.stdin.write('go\n');
    await Promise.all(both.map(({ says }) => says('done')));

    store = openStore(dir);
    expect(await stormResult(store, [PHOTO])).toEqual(expected([PHOTO]));
  },
);
