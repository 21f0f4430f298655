/**
 * The demo's one store: PostgreSQL when `DATABASE_URL` is set, else SQLite in
 * `SWITCHYARD_DATA_DIR` or `.data/`. `switchyard start` opens it before it listens
 * (`app/instrumentation.server.ts`): a PostgreSQL that cannot be reached yet is waited for, up to
 * `START_WAIT_MS`, and one still not there then stops the server with the reason. Opened lazily
 * otherwise (dev, and never at import: a build must not create a database), where a PostgreSQL
 * that cannot be reached is logged and answered 503 with `Retry-After`, and the next request
 * tries again.
 */
import { RetryLater } from 'switchyard-react/server';
import {
  isUnreachable,
  openPgStore,
  UNREACHABLE_MESSAGE,
  UNREACHABLE_RETRY_AFTER_S,
} from './pg-store.server';
import type { CommentLimit, Store } from './store-contract';
import { openStoreWhenFree } from './store.server';

/**
 * How long a start waits for a PostgreSQL that refuses or drops connections (one restarting, or
 * starting beside the app): a worker started during a restart serves once it is back, instead
 * of failing and waiting out the supervisor's pause. Well under the start-up hook's 30 s.
 */
export const START_WAIT_MS = 10_000;

let opening: Promise<Store> | undefined;

export function store(): Promise<Store> {
  // A request never waits for the database to come back: it is told to retry.
  opening ??= open(0).catch((error: unknown) => {
    opening = undefined;
    if (!isUnreachable(error)) throw error;
    console.error(`[demo] ${(error as Error).message}`);
    throw new RetryLater(503, UNREACHABLE_RETRY_AFTER_S, UNREACHABLE_MESSAGE);
  });
  return opening;
}

/** Opens the store now, or throws why it cannot be opened (the database named, no password). */
export async function openStoreAtStartUp(): Promise<void> {
  const opened = open(START_WAIT_MS);
  opening = opened;
  try {
    await opened;
  } catch (error) {
    opening = undefined;
    throw error;
  }
}

/**
 * Comments one client may post: `DEMO_COMMENT_LIMIT` as `<comments>/<seconds>` (`10/60` by
 * default), or `off`. Counted in the database, so every process of a deployment shares it.
 */
export function commentLimit(env: Record<string, string | undefined> = process.env): CommentLimit | false {
  const value = env.DEMO_COMMENT_LIMIT?.trim().toLowerCase() || '10/60';
  if (value === 'off') return false;
  const [, max, seconds] = /^(\d{1,6})\/(\d{1,7})$/.exec(value) ?? [];
  if (!max || !seconds || Number(max) === 0 || Number(seconds) === 0) {
    throw new Error(
      `DEMO_COMMENT_LIMIT must be <comments>/<seconds> such as 10/60, or off; got ${JSON.stringify(value)}`,
    );
  }
  return { max: Number(max), windowMs: Number(seconds) * 1_000 };
}

async function open(waitMs: number): Promise<Store> {
  commentLimit(); // a bad setting stops the start, not the first comment
  const url = process.env.DATABASE_URL;
  if (!url) {
    const sqlite = await openStoreWhenFree();
    process.once('exit', () => void sqlite.close());
    return sqlite;
  }
  return openPgStore(url, { waitMs });
}
