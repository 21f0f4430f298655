/**
 * Runs a database call without ever waiting on a lock inside it: SQLite is asked not to wait
 * (`busy_timeout = 0`), and a call that finds the database locked by another connection is
 * tried again after a pause that lets the event loop serve other requests. After
 * `BUSY_WAIT_MS` it gives up with a 503 and `Retry-After`, never a 500 and never a stall.
 */
import { RetryLater } from 'switchyard-react/server';

/** How long a write waits, in pauses, for a lock held elsewhere before answering 503. */
export const BUSY_WAIT_MS = 1_000;
/** What the 503 tells the client to wait. */
export const BUSY_RETRY_AFTER_S = 1;
const FIRST_PAUSE_MS = 10;
const LONGEST_PAUSE_MS = 100;

export const BUSY_MESSAGE = 'The database is busy; try again in a moment.';

export function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/** `call` now, or again after pauses while the database is locked; a 503 after `waitMs`. */
export async function retryWhileBusy<T>(call: () => T, waitMs: number = BUSY_WAIT_MS): Promise<T> {
  let waited = 0;
  for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
    try {
      return call();
    } catch (error) {
      if (!isBusy(error)) throw error;
      if (waited >= waitMs) throw new RetryLater(503, BUSY_RETRY_AFTER_S, BUSY_MESSAGE);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    waited += pause;
  }
}

/** A read, which in WAL mode waits for no writer: if it ever finds a lock, a 503 at once. */
export function readNow<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (isBusy(error)) throw new RetryLater(503, BUSY_RETRY_AFTER_S, BUSY_MESSAGE);
    throw error;
  }
}
