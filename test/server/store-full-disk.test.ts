/**
 * SQLite on a filesystem that is really full (a 1 MiB tmpfs, or an ext2 loop image): every write
 * of the demo's store — signed-in users' likes and comments through the action endpoint with and
 * without JavaScript, and, straight to the store, the one no route makes (a comment without a
 * limit) — is either stored or refused with a 503 to retry later, and what was acknowledged is
 * exactly what a fresh connection finds. The disk is filled, then a few pages at a time are given
 * back, so every kind of write meets both a disk with room and one without.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { createApp } from '../../server/create-app';
import { FORM_STATE_COOKIE } from '../../server/render/form-state';
import { isRetryLater } from '../../server/http/retry-later';
import { ACTION_HEADER, actionUrl } from '../../shared/actions';
import {
  createStorageFaults,
  STORAGE_LOG_INTERVAL_MS,
  STORAGE_MESSAGE,
  STORAGE_RETRY_AFTER_S,
} from '../../src/lib/busy-retry.server';
import { openStore, type Store } from '../../src/lib/store.server';
import { sessionCookie, TEST_SECRET } from '../helpers/session-cookie';
import { basicApp } from './fixture-app';
import {
  mountSmallFilesystem,
  smallFilesystemUnavailable,
  type SmallFilesystem,
} from '../helpers/small-filesystem';

const ORIGIN = 'http://127.0.0.1';
const AUTHOR = 'full-disk';
/** Room given back before each round: a few pages of the WAL, for a comment or a few likes. */
const ROOM_BYTES = 24 * 1024;
/** Each kind of write this many times a round, one round led by each kind: 5 × 4 × 5 = 100 writes. */
const PER_ROUND = 4;
const LIKED = '6';
/** Who sets their like of `LIKED` with each like posted: on for a pass over them, then off, and so on. */
const LIKERS = ['ada', 'kenji', 'mira', 'tomas', 'noor', 'lena'];
const COMMENTED = '7';
const COMMENTED_UNLIMITED = '8';

type Kind = 'like, script' | 'like, form' | 'comment, script' | 'comment, form' | 'comment, no limit';

/** One write's answer: acknowledged (with the comment's text), or how it was refused. */
interface Outcome {
  kind: Kind;
  acknowledged: boolean;
  /** A comment's text, or a like's user and the state it set. */
  text?: string;
  status: number;
  retryAfter?: string | undefined;
  body?: string;
}

const unavailable = smallFilesystemUnavailable();

describe.skipIf(unavailable !== undefined)('the SQLite store on a full filesystem', () => {
  let disk: SmallFilesystem | undefined;
  let store: Store;
  let app: ReturnType<typeof createApp>;
  const appLogger = { error: vi.fn(), info: vi.fn() };
  const reporter = { report: vi.fn() };
  let storeLog: { error: ReturnType<typeof vi.spyOn>; info: ReturnType<typeof vi.spyOn> };

  beforeAll(async () => {
    disk = mountSmallFilesystem();
    vi.stubEnv('SWITCHYARD_DATA_DIR', disk.dir);
    // Counted in the database on every post, and far above what the test posts.
    vi.stubEnv('DEMO_COMMENT_LIMIT', '10000/60');
    storeLog = {
      error: vi.spyOn(console, 'error').mockImplementation(() => {}),
      info: vi.spyOn(console, 'info').mockImplementation(() => {}),
    };
    store = await (await import('../../src/lib/db.server')).store();
    const actions = Object.fromEntries(
      (['setLiked', 'addComment'] as const).map((name) => [
        actionId('lib/actions.ts', name),
        () => import('../../src/lib/actions').then((m) => m[name]),
      ]),
    );
    app = createApp({
      modules: basicApp,
      actions,
      logger: appLogger,
      reporter,
      actionRateLimit: false,
      secret: TEST_SECRET,
    });
  });
  afterAll(async () => {
    try {
      await store?.close();
    } finally {
      vi.restoreAllMocks();
      vi.unstubAllEnvs();
      disk?.destroy();
    }
  });

  /** The counts and comments as a new connection finds them on disk. */
  function onDisk(): { likes: number | undefined; comments: string[]; likers: string[] } {
    const db = new Database(join(disk!.dir, 'switchyard-demo.db'), { readonly: true });
    try {
      const likes = db
        .prepare<[string], { count: number }>('SELECT count FROM likes WHERE photo_id = ?')
        .get(LIKED)?.count;
      const rows = db
        .prepare<[string], { text: string }>('SELECT text FROM comments WHERE author = ? ORDER BY id')
        .all(AUTHOR);
      const likers = db
        .prepare<[string], { handle: string }>('SELECT handle FROM user_likes WHERE photo_id = ?')
        .all(LIKED)
        .map((row) => row.handle);
      return { likes, comments: rows.map((row) => row.text), likers };
    } finally {
      db.close();
    }
  }

  /** As the client runtime posts a `useActionState` form: the state and the form, JSON answered. */
  async function byScript(name: string, state: unknown, fields: Record<string, string>, cookie = '') {
    const post = request(app)
      .post(actionUrl(actionId('lib/actions.ts', name)))
      .set('host', '127.0.0.1')
      .set('origin', ORIGIN)
      .set('cookie', cookie)
      .set(ACTION_HEADER, '1')
      .field('$args', JSON.stringify([state, { $form: true }]));
    for (const [field, value] of Object.entries(fields)) void post.field(field, value);
    const res = await post;
    return { res, value: res.status === 200 ? (res.body as { value: unknown }).value : undefined };
  }

  /** As a browser without JavaScript posts the same form: a 303 with the state in a cookie. */
  async function byForm(
    name: string,
    state: unknown,
    fields: Record<string, string>,
    page: string,
    cookie = '',
  ) {
    const res = await request(app)
      .post(actionUrl(actionId('lib/actions.ts', name)))
      .set('host', '127.0.0.1')
      .set('origin', ORIGIN)
      .set('cookie', cookie)
      .set('referer', `${ORIGIN}${page}`)
      .type('form')
      .send(
        new URLSearchParams({ $ACTION_KEY: 'k0', $bound: JSON.stringify([state]), ...fields }).toString(),
      );
    const answer = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((line) => line.startsWith(`${FORM_STATE_COOKIE}=`));
    const payload = answer?.slice(FORM_STATE_COOKIE.length + 1).split('.')[0];
    const sealed =
      payload && (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { state: unknown[] });
    return { res, value: res.status === 303 && sealed ? sealed.state[0] : undefined };
  }

  const refusal = (kind: Kind, res: request.Response): Outcome => ({
    kind,
    acknowledged: false,
    status: res.status,
    retryAfter: res.headers['retry-after'] as string | undefined,
    body: res.text,
  });
  const posted = (value: unknown) => (value as { posted: { text: string } | null } | undefined)?.posted;
  const comment = (i: number) => ({ photoId: COMMENTED, author: AUTHOR, text: `comment ${i}` });
  const EMPTY_FORM = { error: null, posted: null, values: { author: '', text: '' } };
  const UNLIKED = { liked: false, count: 0 };
  /** The next like posted, by either kind: whose, and the state it asks for. */
  const nextLike = (() => {
    let n = 0;
    return () => {
      const handle = LIKERS[n % LIKERS.length]!;
      const liked = Math.floor(n++ / LIKERS.length) % 2 === 0;
      const fields = { photoId: LIKED, liked: liked ? '1' : '0' };
      return { handle, liked, fields, cookie: sessionCookie(handle), text: `${handle} ${liked}` };
    };
  })();
  const likeStored = (value: unknown, liked: boolean) =>
    (value as { liked?: unknown } | undefined)?.liked === liked;

  const WRITES: Record<Kind, (i: number) => Promise<Outcome>> = {
    async 'like, script'() {
      const { liked, fields, cookie, text } = nextLike();
      const { res, value } = await byScript('setLiked', UNLIKED, fields, cookie);
      return likeStored(value, liked)
        ? { kind: 'like, script', acknowledged: true, text, status: res.status }
        : refusal('like, script', res);
    },
    async 'like, form'() {
      const { liked, fields, cookie, text } = nextLike();
      const { res, value } = await byForm('setLiked', UNLIKED, fields, `/photos/${LIKED}`, cookie);
      return likeStored(value, liked)
        ? { kind: 'like, form', acknowledged: true, text, status: res.status }
        : refusal('like, form', res);
    },
    async 'comment, script'(i) {
      const { res, value } = await byScript('addComment', EMPTY_FORM, comment(i));
      const text = posted(value)?.text;
      return text
        ? { kind: 'comment, script', acknowledged: true, text, status: res.status }
        : refusal('comment, script', res);
    },
    async 'comment, form'(i) {
      const { res, value } = await byForm('addComment', EMPTY_FORM, comment(i), `/photos/${COMMENTED}`);
      const text = posted(value)?.text;
      return text
        ? { kind: 'comment, form', acknowledged: true, text, status: res.status }
        : refusal('comment, form', res);
    },
    'comment, no limit': (i) =>
      direct('comment, no limit', async () => {
        const text = `comment ${i}`;
        const result = await store.addComment(COMMENTED_UNLIMITED, { author: AUTHOR, text });
        if (!result.ok) throw new Error(`refused as a comment: ${result.error}`);
        return text;
      }),
  };

  /** A call straight to the store: stored when it resolves, refused when it throws `RetryLater`. */
  async function direct(kind: Kind, call: () => Promise<unknown>): Promise<Outcome> {
    try {
      const value = await call();
      return { kind, acknowledged: true, status: 200, ...(typeof value === 'string' ? { text: value } : {}) };
    } catch (error) {
      if (!isRetryLater(error)) return { kind, acknowledged: false, status: 500, body: String(error) };
      return {
        kind,
        acknowledged: false,
        status: error.status,
        retryAfter: String(error.retryAfterSeconds),
        body: `Service Unavailable: ${error.message}`,
      };
    }
  }

  test(
    'every write is stored or refused with a 503 to retry later, never acknowledged unstored',
    { timeout: 30_000 },
    async () => {
      const before = onDisk();
      const likedBefore = (await store.likesOf(LIKED))!;
      expect(before.comments).toEqual([]);

      mkdirSync(join(disk!.dir, 'another')); // while there is room: on ext2 a directory takes a block
      disk!.fill();
      // Reads go on: pages are served while writes are refused.
      expect(await store.commentsOf('36')).toHaveLength(2);
      // A new database (another data directory, or a restart) is refused with the file and the reason.
      expect(() => openStore(join(disk!.dir, 'another'))).toThrow(
        /^Cannot open the demo's database at \/.+\/another\/switchyard-demo\.db: SQLITE_FULL, database or disk is full\. Its filesystem is full: free space there\.$/,
      );

      const outcomes: Outcome[] = [];
      const writes = Object.values(WRITES);
      let i = 0;
      for (let round = 0; round < writes.length; round++) {
        disk!.free(ROOM_BYTES);
        // This round's kind comes first, to the room just given back; the rest meet a full disk.
        const order = [...writes.slice(round), ...writes.slice(0, round)];
        for (let n = 0; n < PER_ROUND; n++) {
          for (const write of order) outcomes.push(await write(i++));
        }
      }

      // Refused, each of them, as "retry later": never a 500, never a 2xx or 3xx.
      const refused = outcomes.filter((outcome) => !outcome.acknowledged);
      expect(
        refused.filter(
          (outcome) =>
            outcome.status !== 503 ||
            outcome.retryAfter !== String(STORAGE_RETRY_AFTER_S) ||
            outcome.body !== `Service Unavailable: ${STORAGE_MESSAGE}`,
        ),
      ).toEqual([]);
      // What was acknowledged is exactly what is on disk.
      const acknowledged = (...kinds: Kind[]) =>
        outcomes.filter((outcome) => outcome.acknowledged && kinds.includes(outcome.kind));
      const after = onDisk();
      // Each user's like is what the last like acknowledged for them set, and counted once.
      const likers = new Map<string, boolean>();
      for (const { text } of acknowledged('like, script', 'like, form')) {
        const [handle, liked] = text!.split(' ');
        likers.set(handle!, liked === 'true');
      }
      const liking = [...likers].filter(([, liked]) => liked).map(([handle]) => handle);
      expect(after.likers.sort()).toEqual(liking.sort());
      expect(after.likes ?? likedBefore).toBe(likedBefore + liking.length);
      expect(after.comments.sort()).toEqual(
        acknowledged('comment, script', 'comment, form', 'comment, no limit')
          .map((outcome) => outcome.text)
          .sort(),
      );

      // Every path met both a disk with room and a full one.
      for (const kind of Object.keys(WRITES)) {
        const ofKind = outcomes.filter((outcome) => outcome.kind === kind);
        expect({
          kind,
          stored: ofKind.some((o) => o.acknowledged),
          refused: ofKind.some((o) => !o.acknowledged),
        }).toEqual({ kind, stored: true, refused: true });
      }

      // Room again: the next write is stored.
      disk!.empty();
      const again = await WRITES['like, script'](i);
      expect(again).toMatchObject({ acknowledged: true });
      const [handle, liked] = again.text!.split(' ');
      expect(onDisk().likers.includes(handle!)).toBe(liked === 'true');

      // The operator: a line when the disk first refused and one when it next stored, then quiet for
      // the minute however many refusals followed; never a stack, an error report or a 500's digest.
      expect(appLogger.error).not.toHaveBeenCalled();
      expect(reporter.report).not.toHaveBeenCalled();
      const lines = storeLog.error.mock.calls;
      expect(lines).toHaveLength(1);
      expect(lines[0]).toEqual([
        expect.stringMatching(
          /^\[demo\] SQLite refused a write to \/.+\/switchyard-demo\.db: SQLITE_FULL, database or disk is full\. Its filesystem is full: free space there\./,
        ),
      ]);
      expect(storeLog.info.mock.calls).toEqual([
        [expect.stringMatching(/^\[demo\] SQLite stores writes to \/.+\/switchyard-demo\.db again/)],
      ]);
    },
  );
});

describe('what the operator reads about refused writes', () => {
  const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
  const ioError = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_FSYNC' });

  test('a line when the disk first refuses, the rest counted into the next minute’s, and one when it stores again', () => {
    let now = 0;
    const logger = { error: vi.fn(), info: vi.fn() };
    const faults = createStorageFaults('/data/switchyard-demo.db', logger, () => now);

    for (let n = 0; n < 100; n++) expect(faults.refused(full)).toMatchObject({ status: 503 });
    expect(logger.error.mock.calls).toEqual([
      [
        '[demo] SQLite refused a write to /data/switchyard-demo.db: SQLITE_FULL, database or disk is full. ' +
          'Its filesystem is full: free space there. Until then, writes are refused with 503 and ' +
          'Retry-After, and none of them is stored; pages are still served.',
      ],
    ]);
    // A disk that flaps between room and none: one line each way, then quiet for the minute.
    faults.stored();
    faults.stored();
    faults.refused(full);
    faults.stored();
    expect(logger.info.mock.calls).toEqual([
      ['[demo] SQLite stores writes to /data/switchyard-demo.db again, after 99 more refused.'],
    ]);
    expect(logger.error).toHaveBeenCalledTimes(1);

    now += STORAGE_LOG_INTERVAL_MS;
    faults.refused(ioError);
    expect(logger.error).toHaveBeenCalledTimes(2);
    expect(logger.error.mock.lastCall).toEqual([
      '[demo] SQLite refused a write to /data/switchyard-demo.db (and 1 more since the last line): ' +
        'SQLITE_IOERR_FSYNC, disk I/O error. Its filesystem is full (free space there) or failing ' +
        '(see the system log). Until then, writes are refused with 503 and Retry-After, and none of ' +
        'them is stored; pages are still served.',
    ]);
  });

  test('any other error is left as it is, and logged by no one here', () => {
    const logger = { error: vi.fn(), info: vi.fn() };
    const faults = createStorageFaults('/data/switchyard-demo.db', logger, () => 0);
    const constraint = Object.assign(new Error('CHECK constraint failed'), {
      code: 'SQLITE_CONSTRAINT_CHECK',
    });
    expect(faults.refused(constraint)).toBe(constraint);
    faults.stored();
    expect(logger.error).not.toHaveBeenCalled();
    expect(logger.info).not.toHaveBeenCalled();
  });
});
