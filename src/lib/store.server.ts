/**
 * The demo's store in SQLite, the embedded default (see store-contract.ts). WAL with
 * `synchronous = FULL`: a write is on disk before its call returns, so nothing acknowledged is
 * lost to a crash; a write the disk refuses (full, or an I/O error) throws, and is a 503 to retry
 * later. The schema moves forward through `MIGRATIONS`, tracked by `user_version`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  BUSY_WAIT_MS,
  createStorageFaults,
  describeStorageFault,
  isStorageFault,
  readNow,
  retryWhileBusy,
  type StorageFaults,
} from './busy-retry.server';
import { checkCommentInput, COMMENTS_PER_PAGE, type Comment, type CommentInput } from './comments';
import { getPhoto } from './photos';
import {
  CLIENT_KEY_LENGTH,
  generatedLikesValues,
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
import { getUser } from './users';

const DB_FILE = 'switchyard-demo.db';

export type { AddCommentResult, Store } from './store-contract';

/**
 * Version `n` of the schema is `MIGRATIONS[0..n-1]` applied in order. Append only: a database on
 * disk has run the ones before its `user_version` and never runs them again.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE comments (
     id INTEGER PRIMARY KEY,
     photo_id TEXT NOT NULL,
     author TEXT NOT NULL,
     text TEXT NOT NULL,
     created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
   ) STRICT;
   CREATE TABLE likes (photo_id TEXT PRIMARY KEY, count INTEGER NOT NULL CHECK (count >= 0)) STRICT;`,
  `CREATE INDEX comments_by_photo ON comments (photo_id, id);`,
  `CREATE TABLE comment_quota (
     client TEXT NOT NULL,
     window_start INTEGER NOT NULL,
     count INTEGER NOT NULL,
     PRIMARY KEY (client, window_start)
   ) STRICT, WITHOUT ROWID;
   CREATE INDEX comment_quota_by_window ON comment_quota (window_start);`,
  // Likes get owners. `likes.count` stays the photo's whole count; an older database's counts are
  // kept as likes owned by nobody, and one below the generated count (an unlike of the old API)
  // is raised to it, the least a count can now be.
  `CREATE TABLE user_likes (
     id INTEGER PRIMARY KEY,
     photo_id TEXT NOT NULL,
     handle TEXT NOT NULL,
     UNIQUE (photo_id, handle)
   ) STRICT;
   CREATE INDEX user_likes_by_handle ON user_likes (handle, id);
   UPDATE likes SET count = base.column2 FROM (${generatedLikesValues()}) AS base
     WHERE likes.photo_id = base.column1 AND likes.count < base.column2;`,
  // Comments get the signed-in writer's handle; those from before, and signed-out ones, have none.
  `ALTER TABLE comments ADD COLUMN author_handle TEXT;
   CREATE INDEX comments_by_author ON comments (author_handle, id) WHERE author_handle IS NOT NULL;`,
];

/** The directory `SWITCHYARD_DATA_DIR` names, else `.data/` in the working directory. */
export function defaultDataDir(): string {
  return path.resolve(process.env.SWITCHYARD_DATA_DIR || '.data');
}

/** Where a refused write is logged, and the clock that keeps it to a line a minute. */
export interface StoreEffects {
  logger: Pick<Console, 'error' | 'info'>;
  now: () => number;
}

/**
 * Writes wait for a lock held elsewhere (another process on the same file) in pauses that let
 * other requests run, and answer 503 after `busyWaitMs`; a write the disk refuses is a 503 at
 * once, logged through `effects`. See `busy-retry.server.ts`.
 */
export function openStore(
  dir: string = defaultDataDir(),
  busyWaitMs: number = BUSY_WAIT_MS,
  effects: StoreEffects = { logger: console, now: Date.now },
): Store {
  const db = openDatabase(dir);
  return createStore(db, busyWaitMs, createStorageFaults(db.name, effects.logger, effects.now));
}

/** How long opening waits, in pauses, for another process that is opening the same file. */
export const OPEN_WAIT_MS = 10_000;

/**
 * The store, opened while other processes may be opening the same new file (`--workers`):
 * SQLite answers some of those meetings (a new file switched to WAL, a lock upgrade that could
 * deadlock) with SQLITE_BUSY at once rather than waiting, so opening is tried again in pauses
 * that let the event loop run, for at most `waitMs`, then it is a 503 to retry.
 */
export function openStoreWhenFree(
  dir: string = defaultDataDir(),
  waitMs: number = OPEN_WAIT_MS,
): Promise<Store> {
  return retryWhileBusy(() => openStore(dir), waitMs);
}

/**
 * The database file in `dir` with the settings above, migrated, and seeded if it is new. A disk
 * that refuses (a new file, or the WAL index an existing one needs, on a full filesystem) is
 * said in words naming the file, as start-up reports it.
 */
export function openDatabase(dir: string): Database.Database {
  mkdirSync(dir, { recursive: true });
  const db = new Database(path.join(dir, DB_FILE));
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    // Opening may wait for another process's write (the dev server and a build share the file)...
    db.pragma('busy_timeout = 5000');
    if (migrate(db) === 0) seed(db);
    // ...but a request never does inside SQLite: that wait would block the event loop.
    db.pragma('busy_timeout = 0');
    return db;
  } catch (error) {
    db.close();
    if (!isStorageFault(error)) throw error;
    throw new Error(`Cannot open the demo's database at ${db.name}: ${describeStorageFault(error)}`, {
      cause: error,
    });
  }
}

/**
 * Runs the migrations the database has not seen, with their version bump, in one transaction
 * that holds the write lock from the moment the version is read: processes opening one file
 * together (`--workers`) migrate it once, one after another, and a failing migration leaves the
 * schema and the version as they were. Returns the old version.
 */
export function migrate(db: Database.Database, migrations: readonly string[] = MIGRATIONS): number {
  return db
    .transaction(() => {
      const from = db.pragma('user_version', { simple: true }) as number;
      if (from > migrations.length) {
        throw new Error(
          `The database is at schema version ${from}, newer than this code (${migrations.length}).`,
        );
      }
      for (const sql of migrations.slice(from)) db.exec(sql);
      if (from < migrations.length) db.pragma(`user_version = ${migrations.length}`);
      return from;
    })
    .immediate();
}

function seed(db: Database.Database): void {
  const insert = db.prepare('INSERT INTO comments (photo_id, author, text, created_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (const [photoId, author, text, hours] of SEED_COMMENTS) {
      const postedAt = Date.parse(getPhoto(photoId)!.createdAt) + hours * 3_600_000;
      insert.run(photoId, author, text, new Date(postedAt).toISOString());
    }
  })();
}

/**
 * The store over `db`. Every write runs to its end before it returns, so a commit the disk
 * refuses throws. Never `.get()` on a write: it stops at the first row, and the autocommit that
 * follows, when the statement is reset, fails silently — an `INSERT … RETURNING` then gives back
 * a row that was never stored. `.all()` and `.run()` finish the statement; a transaction's COMMIT
 * throws.
 */
function createStore(db: Database.Database, busyWaitMs: number, faults: StorageFaults): Store {
  /** A write, stored when this resolves; a lock held elsewhere and a refusing disk are 503s. */
  const write = async <T>(call: () => T): Promise<T> => {
    try {
      const done = await retryWhileBusy(call, busyWaitMs);
      faults.stored();
      return done;
    } catch (error) {
      throw faults.refused(error);
    }
  };
  const columns =
    'id, photo_id AS photoId, author, author_handle AS authorHandle, text, created_at AS createdAt';
  const selectComments = db.prepare<[string, number, number], Comment>(
    `SELECT ${columns} FROM comments WHERE photo_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
  );
  const selectCommentsBy = db.prepare<[string, number, number], Comment>(
    `SELECT ${columns} FROM comments WHERE author_handle = ? AND id < ? ORDER BY id DESC LIMIT ?`,
  );
  const countComments = db.prepare<[string], { n: number }>(
    'SELECT count(*) AS n FROM comments WHERE photo_id = ?',
  );
  const insertComment = db.prepare<[string, string, string | null, string], Comment>(
    `INSERT INTO comments (photo_id, author, author_handle, text) VALUES (?, ?, ?, ?) RETURNING ${columns}`,
  );
  // Counted only while under the limit: a refused post leaves the count where it was.
  const takeQuota = db.prepare<{ client: string; start: number; max: number }, { count: number }>(
    `INSERT INTO comment_quota (client, window_start, count) VALUES (@client, @start, 1)
     ON CONFLICT (client, window_start) DO UPDATE SET count = count + 1 WHERE count < @max
     RETURNING count`,
  );
  const pruneQuota = db.prepare<[number]>('DELETE FROM comment_quota WHERE window_start < ?');
  // IMMEDIATE: the write lock from the start, so a busy database is met before any work is done.
  const postComment = db.transaction(
    (
      photoId: string,
      comment: CommentInput,
      handle: string | null,
      sender: Sender | undefined,
    ): Comment | number => {
      if (sender) {
        const window = quotaWindow(sender);
        pruneQuota.run(window.start);
        const client = sender.client.slice(0, CLIENT_KEY_LENGTH);
        if (takeQuota.all({ client, start: window.start, max: sender.limit.max }).length === 0)
          return window.retryAfterSeconds;
      }
      return insertComment.all(photoId, comment.author, handle, comment.text)[0]!;
    },
  ).immediate;
  const selectLikes = db.prepare<[string], { count: number }>('SELECT count FROM likes WHERE photo_id = ?');
  // A photo nobody has liked here has no row yet: its first like starts from its generated count.
  const addLikes = db.prepare<{ photoId: string; base: number; delta: number }, { count: number }>(
    `INSERT INTO likes (photo_id, count) VALUES (@photoId, max(@base + @delta, 0))
     ON CONFLICT (photo_id) DO UPDATE SET count = max(count + @delta, 0)
     RETURNING count`,
  );
  const insertUserLike = db.prepare<[string, string]>(
    'INSERT INTO user_likes (photo_id, handle) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const deleteUserLike = db.prepare<[string, string]>(
    'DELETE FROM user_likes WHERE photo_id = ? AND handle = ?',
  );
  // The count moves only when the user's row did, in the transaction that moved it: IMMEDIATE
  // holds the write lock from the start, so another process setting the same like comes after
  // this one has committed, finds it done, and counts nothing.
  const setLike = db.transaction(
    (photoId: string, handle: string, liked: boolean, base: number): LikeState => {
      const changed = (liked ? insertUserLike : deleteUserLike).run(photoId, handle).changes > 0;
      const count = changed
        ? addLikes.all({ photoId, base, delta: liked ? 1 : -1 })[0]!.count
        : (selectLikes.get(photoId)?.count ?? base);
      return { liked, count };
    },
  ).immediate;
  const selectLikedBy = db.prepare<[string, string], { photoId: string }>(
    `SELECT photo_id AS photoId FROM user_likes
     WHERE handle = ? AND photo_id IN (SELECT value FROM json_each(?))`,
  );
  const selectPhotosLikedBy = db.prepare<[string, number], { photoId: string }>(
    'SELECT photo_id AS photoId FROM user_likes WHERE handle = ? ORDER BY id DESC LIMIT ?',
  );

  return {
    // Reads are synchronous in better-sqlite3; the contract is async so PostgreSQL fits it too.
    async likesOf(photoId) {
      const photo = getPhoto(photoId);
      return photo && (readNow(() => selectLikes.get(photoId))?.count ?? photo.likes);
    },
    async like(photoId) {
      const photo = getPhoto(photoId);
      if (!photo) return undefined;
      return (await write(() => addLikes.all({ photoId, base: photo.likes, delta: 1 })[0]!)).count;
    },
    async setLiked(photoId, handle, liked) {
      const photo = getPhoto(photoId);
      if (!photo || !getUser(handle)) return undefined;
      return write(() => setLike(photoId, handle, liked, photo.likes));
    },
    async likedBy(handle, photoIds) {
      if (!getUser(handle) || photoIds.length === 0) return new Set();
      const rows = readNow(() => selectLikedBy.all(handle, JSON.stringify(photoIds)));
      return new Set(rows.map((row) => row.photoId));
    },
    photosLikedBy: async (handle, limit = USER_LIST_LIMIT) =>
      readNow(() => selectPhotosLikedBy.all(handle, userListLimit(limit))).map((row) => row.photoId),
    commentsOf: async (photoId, { before = Number.MAX_SAFE_INTEGER, limit = COMMENTS_PER_PAGE } = {}) =>
      readNow(() => selectComments.all(photoId, before, limit)).reverse(),
    commentCount: async (photoId) => readNow(() => countComments.get(photoId)!.n),
    commentsBy: async (handle, { before = Number.MAX_SAFE_INTEGER, limit = COMMENTS_PER_PAGE } = {}) =>
      readNow(() => selectCommentsBy.all(handle, before, userListLimit(limit))),
    async addComment(photoId, input, { sender, handle } = {}) {
      if (handle !== undefined && !getUser(handle)) return { ok: false, error: NO_SUCH_USER };
      const checked = checkCommentInput(input, handle);
      if (!checked.ok) return checked;
      if (!getPhoto(photoId)) return { ok: false, error: 'This photo does not exist.' };
      const posted = await write(() => postComment(photoId, checked.value, handle ?? null, sender));
      if (typeof posted === 'number') {
        return { ok: false, error: overLimitError(sender!, posted), retryAfterSeconds: posted };
      }
      return { ok: true, comment: posted };
    },
    close: async () => void db.close(),
  };
}
