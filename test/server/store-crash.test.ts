/**
 * A comment the store acknowledged survives the process being killed outright
 * (SIGKILL: no exit handlers, no close, no WAL checkpoint) before anything else happens.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { openStore, type Store } from '../../src/lib/store.server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = fileURLToPath(new URL('../fixtures/store-crash-child.ts', import.meta.url));
/** Time for the child to start tsx and write; it is killed and the test fails after this. */
const CHILD_TIMEOUT_MS = 15_000;

let dir: string | undefined;
let store: Store | undefined;
afterEach(() => {
  void store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a stored comment is there after a SIGKILL', { timeout: CHILD_TIMEOUT_MS + 5_000 }, async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-crash-'));
  const text = `written before the crash ${process.pid}`;
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, text], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => resolve(signal)),
  );

  const said = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the child never said "stored" in ${CHILD_TIMEOUT_MS} ms\n${stderr}`));
    }, CHILD_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('stored\n')) {
        clearTimeout(timer);
        resolve(stdout);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the child exited (${code}) before it stored\n${stderr}`));
    });
  });
  expect(said).toBe('stored\n');

  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');

  store = openStore(dir);
  expect(await store.commentsOf('4')).toMatchObject([{ author: 'crash', text }]);
});
