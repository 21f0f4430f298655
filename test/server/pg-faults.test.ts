/**
 * The PostgreSQL store when the database fails under it, on a real throwaway cluster: a
 * connection dropped inside a transaction or a migration, a statement cancelled, a database
 * not there yet at start-up. Each is answered (a 503 to retry, or a wait at start-up), never an
 * `'error'` event nobody listens to, which would end the process; and the feed reads its likes
 * in one statement. Each failure comes at a point the test chooses: a row or an advisory lock
 * held by the test keeps the store's statement waiting while the test crashes the database or
 * cancels or ends the statement's backend.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { RetryLater } from 'switchyard-react/server';
import { listPhotos } from '../../src/lib/photos';
import {
  CANCELLED_MESSAGE,
  isUnreachable,
  openPgStore,
  UNREACHABLE_MESSAGE,
  UNREACHABLE_RETRY_AFTER_S,
} from '../../src/lib/pg-store.server';
import type { Sender, Store } from '../../src/lib/store-contract';
import { postgresBin, startTempPostgres, type TempPostgres } from '../helpers/postgres';

const bin = postgresBin();
let server: TempPostgres | undefined;
/** Connections the test holds locks on; closed after each test. */
const holders: pg.Client[] = [];
const stores: Store[] = [];

const sender = (): Sender => ({
  client: '10.1.1.1',
  at: Date.now(),
  limit: { max: 1_000, windowMs: 3_600_000 },
});

async function sql<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: server!.url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** A connection of the test's own that runs `statements` in a transaction left open. */
async function hold(...statements: string[]): Promise<pg.Client> {
  const holder = new pg.Client({ connectionString: server!.url });
  holder.on('error', () => {});
  await holder.connect();
  holders.push(holder);
  await holder.query('BEGIN');
  for (const statement of statements) await holder.query(statement);
  return holder;
}

/** The backend that waits on a lock, once one does (other than the test's own). */
async function waitingBackend(): Promise<number> {
  return vi.waitFor(
    async () => {
      const [row] = await sql<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
      );
      if (!row) throw new Error('no backend waits on a lock yet');
      return row.pid;
    },
    { timeout: 10_000, interval: 20 },
  );
}

async function open(options: Parameters<typeof openPgStore>[1] = {}): Promise<Store> {
  const store = await openPgStore(server!.url, options);
  stores.push(store);
  return store;
}

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

test.each([
  ['refused', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), true],
  [
    'every address refused',
    new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]),
    true,
  ],
  ['dropped', new Error('Connection terminated unexpectedly'), true],
  ['ended by a shutdown (57P01)', Object.assign(new Error('terminating'), { code: '57P01' }), true],
  ['starting up (57P03)', Object.assign(new Error('starting'), { code: '57P03' }), true],
  ['connection exception (08006)', Object.assign(new Error('failure'), { code: '08006' }), true],
  [
    'cancelled (57014): the database is there',
    Object.assign(new Error('canceling'), { code: '57014' }),
    false,
  ],
  ['no such database (3D000)', Object.assign(new Error('no db'), { code: '3D000' }), false],
  ['a bug', new TypeError('x is undefined'), false],
])('isUnreachable: %s', (_, error, unreachable) => {
  expect(isUnreachable(error)).toBe(unreachable);
});

describe.skipIf(!bin)('the PostgreSQL store when the database fails', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    server = await startTempPostgres(bin!);
  }, 60_000);
  afterAll(() => server?.destroy(), 60_000);
  beforeEach(async () => {
    await sql('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  });
  afterEach(async () => {
    await Promise.all(holders.splice(0).map((holder) => holder.end().catch(() => {})));
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  test('a database that crashes under a transaction is a 503 to retry; once back, the pool hands out live connections only', async () => {
    const logger = { error: vi.fn() };
    const store = await open({ poolSize: 2, logger });
    expect(await store.addComment('4', { author: 'ada', text: 'first' }, { sender: sender() })).toMatchObject(
      {
        ok: true,
      },
    );
    // The post's transaction waits on the limit's row, on a connection it took from the pool...
    await hold('SELECT 1 FROM comment_quota FOR UPDATE');
    const post = failureOf(store.addComment('4', { author: 'ada', text: 'lost' }, { sender: sender() }));
    await waitingBackend();
    // ...when the database crashes: its connections close with no word, the pool's idle ones too.
    server!.stop('immediate');
    try {
      expect(await post).toEqual(new RetryLater(503, UNREACHABLE_RETRY_AFTER_S, UNREACHABLE_MESSAGE));
    } finally {
      server!.start();
    }
    // Every connection the pool hands out now works: posts on both at once are stored.
    const posts = await Promise.all(
      ['again 1', 'again 2'].map((text) =>
        store.addComment('4', { author: 'ada', text }, { sender: sender() }),
      ),
    );
    expect(posts).toMatchObject([{ ok: true }, { ok: true }]);
    // The two in either order: they were posted at once.
    expect((await store.commentsOf('4')).map((c) => c.text).sort()).toEqual(['again 1', 'again 2', 'first']);
  });

  test('a statement the database cancels (a statement timeout) is a 503 to retry, alone or in a transaction', async () => {
    const store = await open();
    const likes = (await store.like('5'))!;
    let holder = await hold("SELECT 1 FROM likes WHERE photo_id = '5' FOR UPDATE");
    const like = failureOf(store.like('5'));
    // What `statement_timeout` does to a statement still running: SQLSTATE 57014.
    await sql('SELECT pg_cancel_backend($1)', [await waitingBackend()]);
    expect(await like).toEqual(new RetryLater(503, UNREACHABLE_RETRY_AFTER_S, CANCELLED_MESSAGE));
    await holder.query('ROLLBACK');

    expect(
      await store.addComment('6', { author: 'ada', text: 'counted' }, { sender: sender() }),
    ).toMatchObject({
      ok: true,
    });
    holder = await hold('SELECT 1 FROM comment_quota FOR UPDATE');
    const post = failureOf(store.addComment('6', { author: 'ada', text: 'cancelled' }, { sender: sender() }));
    await sql('SELECT pg_cancel_backend($1)', [await waitingBackend()]);
    expect(await post).toEqual(new RetryLater(503, UNREACHABLE_RETRY_AFTER_S, CANCELLED_MESSAGE));
    await holder.query('ROLLBACK');
    // Rolled back: neither stored nor counted, and the connection serves the next post.
    expect(await store.like('5')).toBe(likes + 1);
    expect(await store.addComment('6', { author: 'ada', text: 'next' }, { sender: sender() })).toMatchObject({
      ok: true,
    });
    expect((await store.commentsOf('6')).map((c) => c.text)).toEqual(['counted', 'next']);
    expect(await sql('SELECT count FROM comment_quota')).toEqual([{ count: 2 }]);
  });

  test('opening waits for a database not there yet, saying so once, and serves once it is back', async () => {
    const logger = { error: vi.fn() };
    server!.stop();
    let opening: Promise<Store>;
    try {
      opening = open({ waitMs: 60_000, logger, connectTimeoutMs: 2_000 });
      await vi.waitFor(() => expect(logger.error).toHaveBeenCalled(), { timeout: 10_000 });
    } finally {
      server!.start();
    }
    const store = await opening;
    expect(await store.commentsOf('36')).toHaveLength(2);
    expect(logger.error.mock.calls).toEqual([
      [
        expect.stringMatching(
          /^\[demo\] Cannot open the demo's database at postgres:\/\/127\.0\.0\.1:\d+\/postgres: connection refused \(ECONNREFUSED\); waiting up to 60 s for it\.$/,
        ),
      ],
    ]);
  });

  test('a connection dropped while migrating is no crash: opening tries again and migrates once', async () => {
    const logger = { error: vi.fn() };
    // Another process migrating holds the lock; this one waits for it, on a pool's connection.
    const holder = await hold('SELECT pg_advisory_xact_lock(20250630)');
    const opening = open({ waitMs: 60_000, logger });
    await sql('SELECT pg_terminate_backend($1)', [await waitingBackend()]);
    await vi.waitFor(() => expect(logger.error).toHaveBeenCalled(), { timeout: 10_000 });
    await holder.query('COMMIT');
    const store = await opening;
    expect(await store.commentsOf('36')).toHaveLength(2);
    expect(logger.error.mock.calls).toEqual([[expect.stringContaining('(57P01); waiting up to 60 s')]]);
  });

  test('a database that answers "no" is not waited for: no such database fails at once', async () => {
    const logger = { error: vi.fn() };
    const failure = await failureOf(
      openPgStore(server!.url.replace(/\/postgres$/, '/no_such_db'), { waitMs: 60_000, logger }),
    );
    expect((failure as Error).message).toMatch(/: no such database \(3D000\)$/);
    expect(logger.error).not.toHaveBeenCalled();
  });

  test('the feed reads the likes of all its photos in one statement', async () => {
    vi.stubEnv('DATABASE_URL', server!.url);
    vi.resetModules();
    const { openStoreAtStartUp, store } = await import('../../src/lib/db.server');
    const feed = await import('../../src/app/(feed)/page.server');
    try {
      await openStoreAtStartUp();
      stores.push(await store());
      await (await store()).like('7');
      // Every statement goes through a client's `query`: counted as it passes, then run.
      const statements = vi.spyOn(pg.Client.prototype, 'query');
      const { photos } = await feed.load();
      expect(statements).toHaveBeenCalledTimes(1);
      expect(photos).toHaveLength(listPhotos().length);
      const seven = photos.find((photo) => photo.id === '7')!;
      expect(seven.likes).toBe(listPhotos().find((photo) => photo.id === '7')!.likes + 1);
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllEnvs();
    }
  });

  test('opened on first use (dev), a database that cannot be reached is a 503 to retry', async () => {
    vi.stubEnv('DATABASE_URL', `postgres://postgres@127.0.0.1:${server!.port + 1}/postgres`);
    vi.resetModules();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { store } = await import('../../src/lib/db.server');
      expect(await failureOf(store())).toEqual(
        new RetryLater(503, UNREACHABLE_RETRY_AFTER_S, UNREACHABLE_MESSAGE),
      );
      expect(errors).toHaveBeenCalledWith(expect.stringMatching(/connection refused \(ECONNREFUSED\)$/));
    } finally {
      errors.mockRestore();
      vi.unstubAllEnvs();
    }
  });
});
