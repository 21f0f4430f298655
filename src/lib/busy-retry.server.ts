/**
 * How the SQLite store answers a database that cannot take a write now: a 503 with `Retry-After`,
 * never a 500 or a stall. Locked by another connection: SQLite is asked not to wait
 * (`busy_timeout = 0`) and the call is tried again after pauses that let the event loop serve
 * other requests, for at most `BUSY_WAIT_MS`. Refused by the disk (full, or an I/O error): at
 * once, and told to the operator in a line a minute at most, never a line or a stack a request.
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

/** A disk is freed by a person, not in a second: the 503 for one that refused a write asks for a minute. */
export const STORAGE_RETRY_AFTER_S = 60;
export const STORAGE_MESSAGE =
  'The server cannot save anything right now, so nothing was changed; try again later.';
/** At most one line about refused writes this often: a full disk under load must not flood the log. */
export const STORAGE_LOG_INTERVAL_MS = 60_000;

/** SQLITE_FULL: no room on the filesystem. SQLITE_IOERR_*: the system failed a read, write or sync. */
export function isStorageFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_FULL' || (typeof code === 'string' && code.startsWith('SQLITE_IOERR'));
}

export interface StorageFaults {
  /** What to throw for a failed write: a 503 for a storage fault (logged as below), else `error` itself. */
  refused(error: unknown): unknown;
  /** A write was stored: the first after a logged refusal is logged too, with the count between. */
  stored(): void;
}

/**
 * The storage faults of the database `file`. A refused write is logged at once when no refusal
 * was logged in the last `STORAGE_LOG_INTERVAL_MS`, else counted into the next line; the first
 * write stored after a logged refusal is logged too (as info). A disk that stays full, or flaps
 * between full and not, costs at most two lines a minute however many requests meet it.
 */
export function createStorageFaults(
  file: string,
  logger: Pick<Console, 'error' | 'info'>,
  now: () => number,
): StorageFaults {
  let loggedAt = -Infinity;
  /** Refusals no line has counted yet. */
  let uncounted = 0;
  /** A refusal was logged and no write has been stored since. */
  let failing = false;
  return {
    refused(error) {
      if (!isStorageFault(error)) return error;
      if (now() - loggedAt < STORAGE_LOG_INTERVAL_MS) uncounted++;
      else {
        const more = uncounted > 0 ? ` (and ${uncounted} more since the last line)` : '';
        logger.error(
          `[demo] SQLite refused a write to ${file}${more}: ${describeStorageFault(error)} Until ` +
            'then, writes are refused with 503 and Retry-After, and none of them is stored; ' +
            'pages are still served.',
        );
        loggedAt = now();
        uncounted = 0;
        failing = true;
      }
      return new RetryLater(503, STORAGE_RETRY_AFTER_S, STORAGE_MESSAGE);
    },
    stored() {
      if (!failing) return;
      const more = uncounted > 0 ? `, after ${uncounted} more refused` : '';
      logger.info(`[demo] SQLite stores writes to ${file} again${more}.`);
      uncounted = 0;
      failing = false;
    },
  };
}

/** The fault's code and SQLite's words for it, and what an operator can do about it. */
export function describeStorageFault(error: unknown): string {
  const { code, message } = error as { code: string; message: string };
  const hint =
    code === 'SQLITE_FULL'
      ? 'Its filesystem is full: free space there.'
      : // A full disk can also be an I/O error: growing the WAL index (SHMSIZE) fails that way.
        'Its filesystem is full (free space there) or failing (see the system log).';
  return `${code}, ${message}. ${hint}`;
}
