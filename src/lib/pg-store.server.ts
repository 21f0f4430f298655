/**
 * The demo's store on PostgreSQL (`pg`), for several server processes sharing one database. A
 * bounded pool; the schema moves through the same versions as the SQLite store's; every change
 * is one atomic statement, so concurrent likes from any process all count. A database that
 * cannot be reached is waited for at start-up (at most `waitMs`), then a clear error; mid-run it
 * is a 503 with `Retry-After`, never a process that exits, and the pool opens fresh
 * connections once it is back.
 */
import pg from 'pg';
import { RetryLater } from 'switchyard-react/server';
import { batched } from './batched';
import { checkCommentInput, COMMENTS_PER_PAGE, type Comment, type CommentInput } from './comments';
import { getPhoto } from './photos';
import {
  CLIENT_KEY_LENGTH,
  NO_SUCH_USER,
  overLimitError,
  quotaWindow,
  SEED_COMMENTS,
  userListLimit,
  USER_LIST_LIMIT,
  type LikeState,
  type Sender,
  type Store,
} from './store-contract';
import { PG_MIGRATIONS } from './pg-migrations.server';
import { getUser } from './users';

export interface PgStoreOptions {
  /** Connections this process keeps at most; requests beyond wait in the pool's queue. */
  poolSize?: number;
  /** How long a request waits for a connection (and a start-up for the server) before giving up. */
  connectTimeoutMs?: number;
  /**
   * How long opening waits for a database that cannot be reached yet (starting, restarting),
   * trying again every `OPEN_RETRY_MS`; 0, the default, fails at the first try.
   */
  waitMs?: number;
  /** Where a dropped idle connection, and a wait at opening, are logged: neither is a request's error. */
  logger?: Pick<Console, 'error'>;
}

export const DEFAULT_POOL_SIZE = 10;
const CONNECT_TIMEOUT_MS = 5_000;
/** A query that runs longer than this is cancelled by the server: a stuck lock is a 503, not a stall. */
const STATEMENT_TIMEOUT_MS = 10_000;
export const UNREACHABLE_RETRY_AFTER_S = 2;
export const UNREACHABLE_MESSAGE = 'The database cannot be reached; try again in a moment.';
export const CANCELLED_MESSAGE = 'The database took too long to answer; try again in a moment.';
/** The pause between tries while opening waits for the database. */
const OPEN_RETRY_MS = 250;
/** Held while migrating, so processes starting together migrate one after another. */
const MIGRATION_LOCK = 20_250_630;

/**
 * Where the database is, for messages: protocol, host, port and database, never anything from
 * the user info, the parameters or a fragment. A `#`, `?` or `/` left unencoded in a password
 * ends the user info early and turns the rest of the password into the host, the path or a
 * fragment, so a URL with a `#`, or an `@` past its host, is not shown at all.
 */
export function describeTarget(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'an unparsable DATABASE_URL';
  }
  if (url.includes('#') || (parsed.pathname + parsed.search).includes('@')) {
    return "a DATABASE_URL not shown here (percent-encode any '#', '?', '/' or '@' in its password)";
  }
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/** What a connection's error code means, in words that name nothing of the URL. */
const OPEN_FAILURES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  '28P01': 'password authentication failed',
  '28000': 'authentication refused',
  '3D000': 'no such database',
  '53300': 'too many connections',
  '57P01': 'the database ended the connection',
  '57P02': 'the database ended the connection',
  '57P03': 'the database is starting up',
};

/**
 * The one line a failed open is reported with. Built from the error's code and `describeTarget`,
 * never from the text pg or Node gives with a code (`getaddrinfo ENOTFOUND <host>` repeats the
 * host, which a mis-encoded password may have become). An error without a code (a timeout, a
 * migration of ours) keeps its own text, with the password and the rest taken out wherever they
 * appear.
 */
export function openFailureMessage(url: string, error: unknown): string {
  const { code, errors } = (error ?? {}) as { code?: unknown; errors?: unknown };
  // Every address of a host refused is an AggregateError, whose code may be on its errors only.
  const first = Array.isArray(errors) ? (errors[0] as { code?: unknown } | undefined) : undefined;
  const known = typeof code === 'string' ? code : typeof first?.code === 'string' ? first.code : undefined;
  const why = known
    ? `${OPEN_FAILURES[known] ?? 'error'} (${known})`
    : withoutSecrets(url, error instanceof Error ? error.message.split('\n')[0]! : 'unknown error');
  return `Cannot open the demo's database at ${describeTarget(url)}: ${why}`;
}

/**
 * `text` with every piece of the URL that `describeTarget` leaves out of sight replaced: the
 * password, the parameters, a fragment, and the host of a URL that is not shown.
 */
function withoutSecrets(url: string, text: string): string {
  let pieces: string[];
  try {
    const parsed = new URL(url);
    const hidden = !describeTarget(url).includes('//');
    pieces = [parsed.password, parsed.search.slice(1), parsed.hash.slice(1), hidden ? parsed.hostname : ''];
  } catch {
    pieces = [url];
  }
  return pieces
    .flatMap((piece) => [piece, safeDecode(piece)])
    .filter((piece) => piece.length > 0)
    .sort((a, b) => b.length - a.length)
    .reduce((out, piece) => out.replaceAll(piece, '***'), text);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Errors that say "the database is not there now" (refused, dropped, shutting down, timed out). */
export function isUnreachable(error: unknown): boolean {
  const { code, message, errors } = (error ?? {}) as { code?: unknown; message?: unknown; errors?: unknown };
  // Every address of a host refused: an AggregateError, whose own code may be missing.
  if (Array.isArray(errors) && errors.some(isUnreachable)) return true;
  if (typeof code === 'string') {
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND'].includes(code)) {
      return true;
    }
    // SQLSTATE class 08 is "connection exception"; 57P01-3 a server shutting down or starting.
    if (code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
      message,
    )
  );
}

/** SQLSTATE of a statement cancelled: by `statement_timeout`, or by an operator. */
const QUERY_CANCELED = '57014';

/**
 * Connects, migrates and seeds, or throws an error that names where the database is (never its
 * password) and why it could not be reached. The error keeps the failure's code (a SQLSTATE or
 * a Node error name), never pg's text, so `isUnreachable` still reads it.
 */
export async function openPgStore(url: string, options: PgStoreOptions = {}): Promise<Store> {
  const logger = options.logger ?? console;
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
  });
  // An idle connection the server drops emits here; unhandled, it would end the process.
  pool.on('error', (error) => logger.error('[demo] a PostgreSQL connection was dropped:', error.message));
  const deadline = Date.now() + (options.waitMs ?? 0);
  for (let waiting = false; ; waiting = true) {
    try {
      await withConnection(pool, migrate);
      return createPgStore(pool);
    } catch (error) {
      if (!isUnreachable(error) || Date.now() >= deadline) {
        await pool.end().catch(() => {});
        const { code } = (error ?? {}) as { code?: unknown };
        // Not pg's error as the cause: its text can hold the host, and a log would print it.
        throw Object.assign(
          new Error(openFailureMessage(url, error)),
          typeof code === 'string' ? { code } : {},
        );
      }
      // A database starting or restarting is a reason to wait, said once; not a reason to stop.
      if (!waiting) {
        const seconds = Math.ceil((options.waitMs ?? 0) / 1000);
        logger.error(`[demo] ${openFailureMessage(url, error)}; waiting up to ${seconds} s for it.`);
      }
      await new Promise((resolve) => setTimeout(resolve, OPEN_RETRY_MS));
    }
  }
}

/**
 * Runs `run` on a connection of its own, taken from the pool and given back. While it is out,
 * the pool does not listen to it: a connection the server drops then (a restart, a crash)
 * would emit an `'error'` nobody hears, and that ends the process. The same failure rejects
 * the statement running or the next one, where it is answered; here it only marks the
 * connection broken, so that the pool closes it instead of handing it out again.
 */
async function withConnection<T>(pool: pg.Pool, run: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  const onError = () => (broken = true);
  client.on('error', onError);
  try {
    return await run(client);
  } catch (error) {
    broken ||= isUnreachable(error);
    throw error;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}

/** Applies the versions the database has not seen, in one transaction under a lock; seeds a new one. */
async function migrate(client: pg.PoolClient): Promise<void> {
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)');
    const row = (await client.query<{ version: number }>('SELECT version FROM schema_version')).rows[0];
    const from = row?.version ?? 0;
    if (!row) await client.query('INSERT INTO schema_version (version) VALUES (0)');
    if (from > PG_MIGRATIONS.length) {
      throw new Error(
        `The database is at schema version ${from}, newer than this code (${PG_MIGRATIONS.length}).`,
      );
    }
    for (const sql of PG_MIGRATIONS.slice(from)) await client.query(sql);
    await client.query('UPDATE schema_version SET version = $1', [PG_MIGRATIONS.length]);
    if (from === 0) await seed(client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}

async function seed(client: pg.PoolClient): Promise<void> {
  for (const [photoId, author, text, hours] of SEED_COMMENTS) {
    const postedAt = Date.parse(getPhoto(photoId)!.createdAt) + hours * 3_600_000;
    await client.query('INSERT INTO comments (photo_id, author, text, created_at) VALUES ($1, $2, $3, $4)', [
      photoId,
      author,
      text,
      new Date(postedAt).toISOString(),
    ]);
  }
}

const COLUMNS = `id, photo_id AS "photoId", author, author_handle AS "authorHandle", text,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`;

/**
 * A database that is not there, or a statement it cancelled (the statement timeout: a lock held
 * too long), is a 503 the client may retry, never a 500 and never a report.
 */
function retryLaterIfTransient(error: unknown): unknown {
  if (isUnreachable(error)) return new RetryLater(503, UNREACHABLE_RETRY_AFTER_S, UNREACHABLE_MESSAGE);
  if ((error as { code?: unknown } | null)?.code === QUERY_CANCELED) {
    return new RetryLater(503, UNREACHABLE_RETRY_AFTER_S, CANCELLED_MESSAGE);
  }
  return error;
}

/** SQLSTATE of a deadlock PostgreSQL broke by cancelling one side. */
const DEADLOCK = '40P01';

function createPgStore(pool: pg.Pool): Store {
  /** One statement. */
  const query = async <Row extends pg.QueryResultRow>(sql: string, values: unknown[]): Promise<Row[]> => {
    try {
      return (await pool.query<Row>(sql, values)).rows;
    } catch (error) {
      throw retryLaterIfTransient(error);
    }
  };
  /** Statements on one connection that all happen or none do. */
  const transaction = <T>(run: (client: pg.PoolClient) => Promise<T>): Promise<T> =>
    withConnection(pool, async (client) => {
      await client.query('BEGIN');
      try {
        const result = await run(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        if (!isUnreachable(error)) await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    }).catch((error: unknown) => {
      throw retryLaterIfTransient(error);
    });
  /** Counts the post and stores it, or stores nothing: the seconds until the sender's next window. */
  const insertComment = `INSERT INTO comments (photo_id, author, author_handle, text) VALUES ($1, $2, $3, $4)
    RETURNING ${COLUMNS}`;
  const postLimited = async (
    photoId: string,
    comment: CommentInput,
    handle: string | null,
    sender: Sender,
  ) => {
    const window = quotaWindow(sender);
    // Ended windows go in a statement of their own, not inside the post's transaction: two
    // processes pruning at once then wait for each other at most, never hold up a post.
    await query('DELETE FROM comment_quota WHERE window_start < $1', [window.start]).catch(
      (error: unknown) => {
        if ((error as { code?: unknown }).code !== DEADLOCK) throw error;
      },
    );
    return transaction(async (client) => {
      // The row lock makes the count exact across processes; a refused post leaves it unchanged.
      const taken = await client.query(
        `INSERT INTO comment_quota (client, window_start, count) VALUES ($1, $2, 1)
         ON CONFLICT (client, window_start) DO UPDATE SET count = comment_quota.count + 1
         WHERE comment_quota.count < $3 RETURNING count`,
        [sender.client.slice(0, CLIENT_KEY_LENGTH), window.start, sender.limit.max],
      );
      if (taken.rowCount === 0) return window.retryAfterSeconds;
      const inserted = await client.query<Comment>(insertComment, [
        photoId,
        comment.author,
        handle,
        comment.text,
      ]);
      return inserted.rows[0]!;
    });
  };
  // A photo nobody has liked here has no row yet: its first like starts from its generated count.
  // One upsert: PostgreSQL locks the row, so likes from every process add up.
  const addLike = async (photoId: string, base: number) => {
    const [row] = await query<{ count: number }>(
      `INSERT INTO likes (photo_id, count) VALUES ($1, $2::integer + 1)
       ON CONFLICT (photo_id) DO UPDATE SET count = likes.count + 1
       RETURNING count`,
      [photoId, base],
    );
    return row!.count;
  };

  // One statement each. The count moves only if the user's row did: a second insert of the
  // same row waits for the first to commit and then does nothing; a second delete waits, finds
  // the row gone, and deletes nothing. The count's upsert locks its row, so toggles of different
  // users add up. When nothing moved, the count is the one this statement saw.
  const SET_LIKED = `
    WITH moved AS (
      INSERT INTO user_likes (photo_id, handle) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING photo_id
    ), counted AS (
      INSERT INTO likes (photo_id, count) SELECT photo_id, $3::integer + 1 FROM moved
      ON CONFLICT (photo_id) DO UPDATE SET count = likes.count + 1
      RETURNING count
    )
    SELECT coalesce((SELECT count FROM counted), (SELECT count FROM likes WHERE photo_id = $1), $3::integer) AS count`;
  const SET_UNLIKED = `
    WITH moved AS (
      DELETE FROM user_likes WHERE photo_id = $1 AND handle = $2 RETURNING photo_id
    ), counted AS (
      UPDATE likes SET count = likes.count - 1 FROM moved WHERE likes.photo_id = moved.photo_id
      RETURNING likes.count
    )
    SELECT coalesce((SELECT count FROM counted), (SELECT count FROM likes WHERE photo_id = $1), $3::integer) AS count`;

  // The feed asks for the likes of every photo it shows at once: one statement, not one a photo.
  const storedLikes = batched(async (photoIds: string[]) => {
    const rows = await query<{ photoId: string; count: number }>(
      'SELECT photo_id AS "photoId", count FROM likes WHERE photo_id = ANY($1::text[])',
      [photoIds],
    );
    return new Map(rows.map((row) => [row.photoId, row.count]));
  });

  return {
    async likesOf(photoId) {
      const photo = getPhoto(photoId);
      if (!photo) return undefined;
      return (await storedLikes(photoId)) ?? photo.likes;
    },
    async like(photoId) {
      const photo = getPhoto(photoId);
      return photo && addLike(photoId, photo.likes);
    },
    async setLiked(photoId, handle, liked): Promise<LikeState | undefined> {
      const photo = getPhoto(photoId);
      if (!photo || !getUser(handle)) return undefined;
      const [row] = await query<{ count: number }>(liked ? SET_LIKED : SET_UNLIKED, [
        photoId,
        handle,
        photo.likes,
      ]);
      return { liked, count: row!.count };
    },
    async likedBy(handle, photoIds) {
      if (!getUser(handle) || photoIds.length === 0) return new Set();
      const rows = await query<{ photoId: string }>(
        'SELECT photo_id AS "photoId" FROM user_likes WHERE handle = $1 AND photo_id = ANY($2::text[])',
        [handle, photoIds],
      );
      return new Set(rows.map((row) => row.photoId));
    },
    async photosLikedBy(handle, limit = USER_LIST_LIMIT) {
      const rows = await query<{ photoId: string }>(
        'SELECT photo_id AS "photoId" FROM user_likes WHERE handle = $1 ORDER BY id DESC LIMIT $2',
        [handle, userListLimit(limit)],
      );
      return rows.map((row) => row.photoId);
    },
    async commentsOf(photoId, { before = Number.MAX_SAFE_INTEGER, limit = COMMENTS_PER_PAGE } = {}) {
      const rows = await query<Comment>(
        `SELECT ${COLUMNS} FROM comments WHERE photo_id = $1 AND id < $2::bigint ORDER BY id DESC LIMIT $3`,
        [photoId, before, limit],
      );
      return rows.reverse();
    },
    async commentCount(photoId) {
      const [row] = await query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM comments WHERE photo_id = $1',
        [photoId],
      );
      return row!.n;
    },
    async commentsBy(handle, { before = Number.MAX_SAFE_INTEGER, limit = COMMENTS_PER_PAGE } = {}) {
      return query<Comment>(
        `SELECT ${COLUMNS} FROM comments WHERE author_handle = $1 AND id < $2::bigint ORDER BY id DESC LIMIT $3`,
        [handle, before, userListLimit(limit)],
      );
    },
    async addComment(photoId, input, { sender, handle } = {}) {
      if (handle !== undefined && !getUser(handle)) return { ok: false, error: NO_SUCH_USER };
      const checked = checkCommentInput(input, handle);
      if (!checked.ok) return checked;
      if (!getPhoto(photoId)) return { ok: false, error: 'This photo does not exist.' };
      if (sender) {
        const posted = await postLimited(photoId, checked.value, handle ?? null, sender);
        if (typeof posted === 'number') {
          return { ok: false, error: overLimitError(sender, posted), retryAfterSeconds: posted };
        }
        return { ok: true, comment: posted };
      }
      const { author, text } = checked.value;
      const [comment] = await query<Comment>(insertComment, [photoId, author, handle ?? null, text]);
      return { ok: true, comment: comment! };
    },
    close: () => pool.end(),
  };
}
