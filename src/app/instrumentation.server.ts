/**
 * The demo's start-up hook, awaited by `switchyard start` before it listens: the store is
 * opened (and migrated) here, so a database that cannot be reached is a clear error at start-up
 * rather than a 503 on every page. A PostgreSQL that is restarting is waited for a few seconds
 * first (`START_WAIT_MS`).
 */
import { openStoreAtStartUp } from '../lib/db.server';

export async function register(): Promise<void> {
  await openStoreAtStartUp();
}
