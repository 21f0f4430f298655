/**
 * The demo's PostgreSQL store on a real, throwaway PostgreSQL cluster: the shared store
 * contract, migrations run once by processes starting together, the pool's bound, a clear
 * start-up error, 503 with Retry-After while the database is down and recovery after.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { RetryLater } from 'switchyard-react/server';
import { listPhotos } from '../../src/lib/photos';
import { PG_MIGRATIONS } from '../../src/lib/pg-migrations.server';
import { openFailureMessage, openPgStore, UNREACHABLE_RETRY_AFTER_S } from '../../src/lib/pg-store.server';
import type { Store } from '../../src/lib/store-contract';
import { MIGRATIONS } from '../../src/lib/store.server';
import { postgresBin, startTempPostgres, type TempPostgres } from '../helpers/postgres';
import { describeStoreContract } from './store-contract';

const bin = postgresBin();
let server: TempPostgres | undefined;

/** Drops everything the store made, so the next open starts from an empty database. */
async function resetDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  } finally {
    await client.end();
  }
}

async function sql<Row extends pg.QueryResultRow>(text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: server!.url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

test('a failed open names protocol, host, port and database, nothing of the password', () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5433'), { code: 'ECONNREFUSED' });
  expect(
    openFailureMessage('postgres://u:pw-1@db.internal:5433/demo?sslmode=require&password=pw-2', refused),
  ).toBe(
    "Cannot open the demo's database at postgres://db.internal:5433/demo: connection refused (ECONNREFUSED)",
  );
  // A `#` left unencoded in a password: the URL parses with `ss` as the host and the rest as a
  // fragment, and Node's own text names that host.
  const leaky = 'postgres://u:p@ss#word@host/db';
  const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND ss'), {
    code: 'ENOTFOUND',
    hostname: 'ss',
  });
  const hidden =
    "Cannot open the demo's database at a DATABASE_URL not shown here (percent-encode any '#', '?', '/' or '@' in its password)";
  expect(openFailureMessage(leaky, notFound)).toBe(`${hidden}: host not found (ENOTFOUND)`);
  for (const url of ['postgres://u:12/p@ss@host/db', 'postgres://u:1?p@ss@host/db']) {
    expect(openFailureMessage(url, notFound)).toBe(`${hidden}: host not found (ENOTFOUND)`);
  }
  // Without a code, the error's own text, with what the URL hides taken out wherever it appears.
  const echoed = new Error('timeout exceeded when trying to connect to ss#word@host/db');
  expect(openFailureMessage(leaky, echoed)).toBe(
    `${hidden}: timeout exceeded when trying to connect to ***#***`,
  );
  expect(openFailureMessage('postgres://u:pw-1@h/db', new Error('pw-1 was refused'))).toBe(
    "Cannot open the demo's database at postgres://h/db: *** was refused",
  );
});

describe.skipIf(!bin)('PostgreSQL store', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    server = await startTempPostgres(bin!);
  }, 60_000);
  afterAll(() => server?.destroy(), 60_000);

  describeStoreContract('PostgreSQL', () => ({
    reset: () => resetDatabase(server!.url),
    open: () => openPgStore(server!.url),
    atVersion: async (version, statements) => {
      await resetDatabase(server!.url);
      await sql(
        `CREATE TABLE schema_version (version integer NOT NULL);
         INSERT INTO schema_version (version) VALUES (${version});
         ${PG_MIGRATIONS.slice(0, version).join(';\n')};
         ${statements}`,
      );
    },
    quotaRows: async () =>
      (await sql<{ n: number }>('SELECT count(*)::integer AS n FROM comment_quota'))[0]!.n,
  }));

  test('moves through the same schema versions as the SQLite store', () => {
    expect(PG_MIGRATIONS).toHaveLength(MIGRATIONS.length);
  });

  test('processes starting together migrate and seed once', async () => {
    await resetDatabase(server!.url);
    const stores = await Promise.all([1, 2, 3].map(() => openPgStore(server!.url)));
    try {
      expect(await sql('SELECT version FROM schema_version')).toEqual([{ version: PG_MIGRATIONS.length }]);
      expect(await stores[2]!.commentsOf('36')).toHaveLength(2);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  test('a like is set in one statement, and the likes of a whole feed are read in one', async () => {
    await resetDatabase(server!.url);
    const store = await openPgStore(server!.url);
    try {
      const ids = listPhotos().map((photo) => photo.id);
      // Every statement goes through a client's `query`: counted as it passes, then run.
      const statements = vi.spyOn(pg.Client.prototype, 'query');
      expect(await store.setLiked('5', 'ada', true)).toMatchObject({ liked: true });
      expect(await store.setLiked('5', 'ada', true)).toMatchObject({ liked: true });
      expect(await store.setLiked('5', 'ada', false)).toMatchObject({ liked: false });
      expect(statements).toHaveBeenCalledTimes(3);
      await store.setLiked('7', 'ada', true);
      statements.mockClear();
      expect(await store.likedBy('ada', ids)).toEqual(new Set(['7']));
      expect(statements).toHaveBeenCalledTimes(1);
    } finally {
      vi.restoreAllMocks();
      await store.close();
    }
  });

  test('keeps at most poolSize connections, however many requests come at once', async () => {
    await resetDatabase(server!.url);
    const url = `${server!.url}?application_name=pool-bound`;
    const store = await openPgStore(url, { poolSize: 2 });
    try {
      await Promise.all(Array.from({ length: 30 }, () => store.like('5')));
      // Idle connections stay in the pool for a while, so this counts all it opened.
      const [row] = await sql<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'pool-bound'",
      );
      expect(Number(row!.n)).toBeGreaterThan(0);
      expect(Number(row!.n)).toBeLessThanOrEqual(2);
    } finally {
      await store.close();
    }
  });

  test('a database that cannot be reached at start-up is a clear error without the password', async () => {
    const unused = `postgres://postgres:secret@127.0.0.1:${server!.port + 1}/demo`;
    const failure = await openPgStore(unused, { connectTimeoutMs: 2_000 }).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(failure?.message).toMatch(
      /^Cannot open the demo's database at postgres:\/\/127\.0\.0\.1:\d+\/demo: connection refused \(ECONNREFUSED\)$/,
    );
    expect(failure?.message).toMatch(/ECONNREFUSED/);
    expect(failure?.message).not.toContain('secret');
  });

  test('while the database is down each call is a 503 to retry; once it is back, calls work again', async () => {
    await resetDatabase(server!.url);
    const logger = { error: vi.fn() };
    let store: Store | undefined = await openPgStore(server!.url, { logger, connectTimeoutMs: 2_000 });
    try {
      const before = (await store.like('9'))!;
      server!.stop();
      for (const call of [
        () => store!.like('9'),
        () => store!.setLiked('9', 'ada', true),
        () => store!.likedBy('ada', ['9']),
        () => store!.commentsOf('9'),
        () => store!.likesOf('9'),
      ]) {
        const error = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(RetryLater);
        expect(error).toMatchObject({ status: 503, retryAfterSeconds: UNREACHABLE_RETRY_AFTER_S });
      }
      server!.start();
      expect(await store.like('9')).toBe(before + 1);
    } finally {
      await store?.close();
      store = undefined;
    }
  });
});
