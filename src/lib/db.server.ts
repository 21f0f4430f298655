/**
 * The demo's one store, opened on first use (not at import: a build must not create a database):
 * PostgreSQL when `DATABASE_URL` is set, else SQLite in `SWITCHYARD_DATA_DIR` or `.data/`. A
 * PostgreSQL that cannot be reached is logged with the reason and answered 503 with
 * `Retry-After`; the next request tries to open it again.
 */
import { RetryLater } from 'switchyard/server';
import {
  isUnreachable,
  openPgStore,
  UNREACHABLE_MESSAGE,
  UNREACHABLE_RETRY_AFTER_S,
} from './pg-store.server';
import type { Store } from './store-contract';
import { openStore } from './store.server';

let opening: Promise<Store> | undefined;

export function store(): Promise<Store> {
  opening ??= open().catch((error: unknown) => {
    opening = undefined;
    throw error;
  });
  return opening;
}

async function open(): Promise<Store> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const sqlite = openStore();
    process.once('exit', () => void sqlite.close());
    return sqlite;
  }
  try {
    return await openPgStore(url);
  } catch (error) {
    if (!isUnreachable((error as Error).cause)) throw error;
    console.error(`[demo] ${(error as Error).message}`);
    throw new RetryLater(503, UNREACHABLE_RETRY_AFTER_S, UNREACHABLE_MESSAGE);
  }
}
