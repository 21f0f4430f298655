/**
 * A database locked by another process (`BEGIN IMMEDIATE` held in a child): a write never waits
 * inside SQLite, so the event loop goes on serving, and after a short wait the write is a 503
 * with `Retry-After`, never a 500. The child holds the lock until the test lets it go.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { createApp } from '../../server/create-app';
import { RetryLater } from '../../server/http/retry-later';
import { actionUrl } from '../../shared/actions';
import { openStore, openStoreWhenFree, type Store } from '../../src/lib/store.server';
import { sessionCookie, TEST_SECRET } from '../helpers/session-cookie';
import { basicApp } from './fixture-app';

/** Node's start-up on a loaded machine: generous. */
const CHILD_TIMEOUT_MS = 30_000;

let dir: string;
let store: Store | undefined;
let holder: ChildProcess | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-busy-'));
});
afterEach(async () => {
  await release();
  void store?.close();
  store = undefined;
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

/** Another process takes the write lock on the database in `dir`, and says so. */
function holdLock(): Promise<void> {
  const script = `
    import Database from 'better-sqlite3';
    const db = new Database(${JSON.stringify(join(dir, 'switchyard-demo.db'))});
    db.exec('BEGIN IMMEDIATE');
    process.stdout.write('locked\\n');
    process.stdin.resume().on('end', () => { db.exec('COMMIT'); db.close(); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  holder = child;
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
}

async function release(): Promise<void> {
  const child = holder;
  holder = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin!.end();
  await exited;
}

describe('opening a new database another process has locked', { timeout: CHILD_TIMEOUT_MS }, () => {
  test('opening as a process starts (workers on one new file) waits for the lock, then migrates and seeds', async () => {
    await holdLock(); // on a new, empty file: switching it to WAL meets the lock
    expect(() => openStore(dir)).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    const opening = openStoreWhenFree(dir);
    await new Promise((resolve) => setImmediate(resolve));
    await release();
    store = await opening;
    expect(await store.likesOf('5')).toBeGreaterThan(0);
  });
});

describe('a write behind a lock held by another process', { timeout: CHILD_TIMEOUT_MS }, () => {
  test('waits without blocking the event loop, then is a 503 to retry in a second', async () => {
    store = openStore(dir, 200);
    await holdLock();
    const like = store.like('5');
    let settled = false;
    like.then(
      () => (settled = true),
      () => (settled = true),
    );
    // A turn of the event loop comes while the write waits: other requests are served meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    await expect(like).rejects.toEqual(
      new RetryLater(503, 1, 'The database is busy; try again in a moment.'),
    );
    expect(await store.likesOf('5')).toBeGreaterThan(0);
  });

  test('goes through once the lock is released while it waits', async () => {
    store = openStore(dir, 10_000);
    const before = (await store.likesOf('5'))!;
    await holdLock();
    const like = store.like('5');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await release();
    expect(await like).toBe(before + 1);
  });

  test('the demo’s like action answers 503 with Retry-After; pages are served meanwhile', async () => {
    vi.stubEnv('SWITCHYARD_DATA_DIR', dir);
    const { store: demoStore } = await import('../../src/lib/db.server');
    await demoStore(); // opened (and seeded) before the other process takes the lock
    const id = actionId('lib/actions.ts', 'setLiked');
    const actions = { [id]: () => import('../../src/lib/actions').then((m) => m.setLiked) };
    const app = createApp({
      modules: basicApp,
      actions,
      secret: TEST_SECRET,
      logger: { error: vi.fn(), info: vi.fn() },
    });
    await holdLock();
    const [like, page] = await Promise.all([
      request(app)
        .post(actionUrl(id))
        .set('host', '127.0.0.1')
        .set('origin', 'http://127.0.0.1')
        .set('cookie', sessionCookie('ada'))
        .type('form')
        .send('$bound=[{"liked":false,"count":0}]&photoId=5&liked=1'),
      request(app).get('/'),
    ]);
    expect(page.status).toBe(200);
    expect(like.status).toBe(503);
    expect(like.headers['retry-after']).toBe('1');
    expect(like.text).toBe('Service Unavailable: The database is busy; try again in a moment.');
    await (await demoStore()).close();
  });
});
