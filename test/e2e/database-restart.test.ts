/**
 * The demo on PostgreSQL while its database crashes (`pg_ctl stop -m immediate`) and is
 * restarted (`-m fast`) under load, as `--workers 2` and as one process: every request gets an
 * answer, 503 with `Retry-After` while the database is down; `/docs` answers 200 throughout; no
 * process exits; pages are back within 2 s of the database; every acknowledged write is stored,
 * and a photo's like count is exactly its users' likes.
 * All real and on 127.0.0.1, bounded in requests and in time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { actionUrl } from '../../shared/actions';
import { getPhoto } from '../../src/lib/photos';
import { USERS } from '../helpers/likes-at-once';
import { postgresBin, startTempPostgres, type TempPostgres } from '../helpers/postgres';
import { sessionCookie, TEST_SECRET } from '../helpers/session-cookie';
import { BUILDS } from './global-setup';
import { skipWithoutChromium } from './harness';

const bin = skipWithoutChromium ? undefined : postgresBin();
const LIKE = actionUrl(actionId('lib/actions.ts', 'setLiked'));
const COMMENT = actionUrl(actionId('lib/actions.ts', 'addComment'));
const EMPTY_FORM_STATE = JSON.stringify([{ error: null, posted: null, values: { author: '', text: '' } }]);
/** The photos written to, one per test: what the database holds afterwards is theirs alone. */
const PHOTOS = { workers: { liked: '21', commented: '22' }, single: { liked: '23', commented: '24' } };
/** Longer than any answer may take: a request that reaches it hung. */
const CLIENT_TIMEOUT_MS = 30_000;
const CLIENTS = 6;
const MAX_REQUESTS = 4_000;
/** How soon after the database is back pages must be served again. */
const BACK_WITHIN_MS = 2_000;
/** Generous bound on any other wait: processes starting, the database stopping. */
const WAIT_MS = 20_000;

type Kind = 'page' | 'feed' | 'data' | 'docs' | 'like' | 'comment' | 'form';
const KINDS: readonly Kind[] = ['page', 'feed', 'data', 'docs', 'like', 'comment', 'form'];
const DATABASE_KINDS = KINDS.filter((kind) => kind !== 'docs');

interface Answer {
  kind: Kind;
  status: number;
  retryAfter: string | null;
  sentAt: number;
  /** Why no answer came: a reset, a refused connection, the client's timeout. */
  error?: string;
  /** A write the server said it made: the comment's text, or the like's state. */
  acknowledged?: string | boolean;
  /** A like's user and the state it asked for. */
  like?: { handle: string; wanted: boolean };
}

let database: TempPostgres | undefined;
const children: ChildProcess[] = [];

afterEach(() => {
  children.splice(0).forEach((child) => child.exitCode === null && child.kill('SIGKILL'));
});

interface Demo {
  base: string;
  child: ChildProcess;
  output: () => string;
}

/** `switchyard start` on the demo's build with `DATABASE_URL`; resolves once `listeners` listen. */
async function startDemo(args: string[], listeners: number): Promise<Demo> {
  const child = spawn(process.execPath, ['bin/switchyard.js', 'start', '--out', BUILDS.demo.out, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      SWITCHYARD_DATA_DIR: mkdtempSync(join(tmpdir(), 'switchyard-restart-')),
      DATABASE_URL: database!.url,
      SWITCHYARD_ACTION_RATE_LIMIT: 'off',
      // On, as by default: a comment is then a transaction on a connection of its own. An hour
      // long, so that no window ends, and no post prunes a row, while the test runs.
      DEMO_COMMENT_LIMIT: '100000/3600',
      SWITCHYARD_SHUTDOWN_TIMEOUT_MS: '5000',
      SWITCHYARD_SECRET: TEST_SECRET,
    },
  });
  children.push(child);
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const listening = () => text.match(/serving http:\/\/localhost:\d+/g)?.length ?? 0;
  await until(() => {
    if (child.exitCode !== null) throw new Error(`the demo exited (${child.exitCode}):\n${text}`);
    return listening() === listeners;
  }, 'the demo to listen');
  const port = /serving http:\/\/localhost:(\d+)/.exec(text)![1];
  return { base: `http://127.0.0.1:${port}`, child, output: () => text };
}

/** The no-JS comment form's action and key, read from a page. */
async function formOf(base: string, photoId: string): Promise<{ action: string; key: string }> {
  const page = await (await fetch(`${base}/photos/${photoId}`, { headers: { connection: 'close' } })).text();
  const form = /<form[^>]*class="comment-form"[^>]*>([\s\S]*?)<\/form>/.exec(page)![1]!;
  return {
    action: /<form[^>]*class="comment-form"[^>]*action="([^"]+)"/.exec(page)![1]!,
    key: /name="\$ACTION_KEY" value="([^"]+)"/.exec(form)![1]!,
  };
}

/**
 * One request of `kind`, each on a connection of its own (which cluster hands out in turn).
 * A like is `like.handle`'s, asking for `like.wanted`.
 */
async function send(
  kind: Kind,
  n: number,
  demo: Demo,
  photos: typeof PHOTOS.single,
  form: {
    action: string;
    key: string;
  },
  like = { handle: 'ada', wanted: true },
): Promise<Answer> {
  const { base } = demo;
  const sentAt = Date.now();
  const headers = { connection: 'close', origin: base };
  const action = { ...headers, 'x-switchyard-action': '1' };
  const post = (path: string, fields: Record<string, string>, extra: Record<string, string>) =>
    fetch(base + path, {
      method: 'POST',
      redirect: 'manual',
      headers: extra,
      body: new URLSearchParams(fields),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
  const get = (path: string) =>
    fetch(base + path, { headers, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
  const photo = String(1 + (n % 30));
  try {
    let response: Response;
    let acknowledged: string | boolean | undefined;
    if (kind === 'page') response = await get(`/photos/${photo}`);
    else if (kind === 'feed') response = await get('/');
    else if (kind === 'data') response = await get(`/photos/${photo}?_sy=%2F`);
    else if (kind === 'docs') response = await get('/docs');
    else if (kind === 'like') {
      const fields = {
        $bound: '[{"liked":false,"count":0}]',
        photoId: photos.liked,
        liked: like.wanted ? '1' : '0',
      };
      response = await post(LIKE, fields, { ...action, cookie: sessionCookie(like.handle) });
      if (response.status === 200) {
        const { value } = (await response.json()) as { value: { liked: boolean } };
        acknowledged = value.liked;
      }
    } else if (kind === 'comment') {
      const text = `js ${n}`;
      const fields = { $bound: EMPTY_FORM_STATE, photoId: photos.commented, author: 'restart', text };
      response = await post(COMMENT, fields, action);
      if (response.status === 200) {
        const { value } = (await response.json()) as { value: { error: string | null } };
        // A refusal is no acknowledgement, and none is expected: its text fails the test below.
        acknowledged = value.error === null ? text : `refused: ${value.error}`;
      }
    } else {
      const text = `form ${n}`;
      const fields = {
        $ACTION_KEY: form.key,
        $bound: EMPTY_FORM_STATE,
        photoId: photos.commented,
        author: 'restart',
        text,
      };
      response = await post(form.action, fields, {
        ...headers,
        referer: `${base}/photos/${photos.commented}`,
      });
      if (response.status === 303) acknowledged = text;
    }
    if (!response.bodyUsed) await response.arrayBuffer();
    return {
      kind,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
      sentAt,
      ...(acknowledged === undefined ? {} : { acknowledged }),
      ...(kind === 'like' ? { like } : {}),
    };
  } catch (error) {
    const { name, cause } = error as { name: string; cause?: { code?: string } };
    return {
      kind,
      status: 0,
      retryAfter: null,
      sentAt,
      error: cause?.code ?? name,
      ...(kind === 'like' ? { like } : {}),
    };
  }
}

/**
 * Clients sending every kind in turn until stopped, or `MAX_REQUESTS` have been sent. Each
 * client is one of the users, whose likes it sets on and off in turn: one after another, so the
 * last one it sent is the user's like.
 */
function drive(demo: Demo, photos: typeof PHOTOS.single, form: { action: string; key: string }) {
  const answers: Answer[] = [];
  let sent = 0;
  let stopped = false;
  const client = async (handle: string) => {
    let wanted = true;
    while (!stopped && sent < MAX_REQUESTS) {
      const n = sent++;
      const kind = KINDS[n % KINDS.length]!;
      answers.push(await send(kind, n, demo, photos, form, { handle, wanted }));
      if (kind === 'like') wanted = !wanted;
    }
  };
  const done = Promise.all(USERS.slice(0, CLIENTS).map(client));
  return {
    answers,
    stop: () => {
      stopped = true;
      return done;
    },
  };
}

/**
 * Waits until `done`, checking every 25 ms; fails at once when one of `answers` is no answer,
 * and after `WAIT_MS` in any case.
 */
async function until(
  done: () => boolean | Promise<boolean>,
  what: string,
  answers: Answer[] = [],
): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await done())) {
    const lost = answers.find((a) => a.error !== undefined);
    if (lost) throw new Error(`a ${lost.kind} request got no answer (${lost.error}) before ${what}`);
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Whether every kind in `kinds` has an answer sent after `since` with one of `statuses`. */
function allAnswered(answers: Answer[], kinds: readonly Kind[], since: number, statuses: number[]): boolean {
  return kinds.every((kind) =>
    answers.some((a) => a.kind === kind && a.sentAt >= since && statuses.includes(a.status)),
  );
}

async function sql<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: database!.url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * A connection that holds every row of the comment limit's table, so that posts wait inside
 * their transactions, each on a connection taken from the pool: the case a restart must not
 * turn into a crash.
 */
async function holdCommentLimit(): Promise<pg.Client> {
  const holder = new pg.Client({ connectionString: database!.url });
  // The database going away ends this connection too: that is expected here.
  holder.on('error', () => {});
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query('SELECT 1 FROM comment_quota FOR UPDATE');
  return holder;
}

async function waitingOnLocks(): Promise<number> {
  const [row] = await sql<{ n: number }>(
    "SELECT count(*)::integer AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
  );
  return row!.n;
}

/** A photo's likes in the database, or its generated count before anyone liked it. */
async function likesOf(photoId: string): Promise<number> {
  const [row] = await sql<{ count: number }>('SELECT count FROM likes WHERE photo_id = $1', [photoId]);
  return row?.count ?? getPhoto(photoId)!.likes;
}

/**
 * The whole story against one running demo: load, a crash of the database and its start, a
 * normal restart, then the checks.
 */
async function restartUnderLoad(demo: Demo, photos: typeof PHOTOS.single): Promise<Answer[]> {
  const likedBefore = await likesOf(photos.liked);
  const form = await formOf(demo.base, photos.commented);
  const load = drive(demo, photos, form);
  try {
    await until(() => allAnswered(load.answers, KINDS, 0, [200, 303]), 'every kind served', load.answers);
    for (const mode of ['immediate', 'fast'] as const) {
      // Comments wait on the limit's row, inside their transactions, when the database goes.
      const holder = await holdCommentLimit();
      await until(async () => (await waitingOnLocks()) >= 2, 'comments waiting on the lock', load.answers);
      database!.stop(mode);
      void holder.end().catch(() => {});
      const down = Date.now();
      try {
        // Every kind that reads or writes the database is refused to retry later; the docs are served.
        await until(
          () =>
            allAnswered(load.answers, DATABASE_KINDS, down, [503]) &&
            allAnswered(load.answers, ['docs'], down, [200]),
          `503s after stop -m ${mode}`,
          load.answers,
        );
      } finally {
        database!.start();
      }
      const up = Date.now();
      // A page of its own, asked again at once until it is served: the first success times it.
      for (;;) {
        const answer = await send('page', 0, demo, photos, form);
        expect(answer.error, `${mode}: a page sent while the database came back`).toBeUndefined();
        if (answer.status === 200) break;
        expect(Date.now() - up, `${mode}: pages still refused`).toBeLessThan(BACK_WITHIN_MS);
      }
      expect(Date.now() - up).toBeLessThan(BACK_WITHIN_MS);
      await until(
        () => allAnswered(load.answers, DATABASE_KINDS, up, [200, 303]),
        `every kind served after -m ${mode}`,
        load.answers,
      );
    }
  } finally {
    await load.stop();
  }
  const { answers } = load;

  expect(answers.filter((a) => a.error !== undefined)).toEqual([]);
  const statuses = (kinds: readonly Kind[]) =>
    [...new Set(answers.filter((a) => kinds.includes(a.kind)).map((a) => a.status))].sort();
  expect(statuses(['docs'])).toEqual([200]);
  expect(statuses(['page', 'feed', 'data', 'like', 'comment'])).toEqual([200, 503]);
  expect(statuses(['form'])).toEqual([303, 503]);
  expect(answers.filter((a) => a.status === 503 && a.retryAfter !== '2')).toEqual([]);

  // Every acknowledged write is in the database: each comment by its text, the likes by count.
  const acknowledged = (kind: Kind) => answers.filter((a) => a.kind === kind && a.acknowledged !== undefined);
  const comments = [...acknowledged('comment'), ...acknowledged('form')].map((a) => a.acknowledged);
  expect(comments.filter((text) => String(text).startsWith('refused'))).toEqual([]);
  const stored = new Set(
    (await sql<{ text: string }>('SELECT text FROM comments WHERE photo_id = $1', [photos.commented])).map(
      (row) => row.text,
    ),
  );
  expect(comments.filter((text) => !stored.has(String(text)))).toEqual([]);
  expect(acknowledged('like').filter((a) => a.acknowledged !== a.like!.wanted)).toEqual([]);
  // Each user's like is what their last acknowledged like set, or what one refused after it asked
  // for (a like stored whose answer was lost with its connection), and the count is exactly theirs.
  const likers = new Set(
    (await sql<{ handle: string }>('SELECT handle FROM user_likes WHERE photo_id = $1', [photos.liked])).map(
      (row) => row.handle,
    ),
  );
  for (const handle of USERS.slice(0, CLIENTS)) {
    const mine = answers.filter((a) => a.kind === 'like' && a.like!.handle === handle);
    const lastAcknowledged = mine.findLastIndex((a) => a.acknowledged !== undefined);
    const possible = new Set([
      lastAcknowledged < 0 ? false : mine[lastAcknowledged]!.like!.wanted,
      ...mine.slice(lastAcknowledged + 1).map((a) => a.like!.wanted),
    ]);
    expect({ handle, liked: possible.has(likers.has(handle)) }).toEqual({ handle, liked: true });
  }
  expect(await likesOf(photos.liked)).toBe(likedBefore + likers.size);
  return answers;
}

describe.skipIf(!bin)('the demo on PostgreSQL while the database restarts under load', () => {
  beforeAll(async () => {
    database = await startTempPostgres(bin!);
  }, 60_000);
  afterAll(() => database?.destroy(), 60_000);

  test(
    '--workers 2: every request answered, no worker exits, back within 2 s',
    { timeout: 60_000 },
    async () => {
      const demo = await startDemo(['--port', '0', '--workers', '2'], 2);
      const workers = [...demo.output().matchAll(/Worker (\d+) started/g)].map((m) => Number(m[1]));
      expect(workers).toHaveLength(2);
      await restartUnderLoad(demo, PHOTOS.workers);
      // The supervisor saw no worker go, and started none after the first two.
      expect(demo.output()).not.toMatch(/exited|Unhandled/);
      expect([...demo.output().matchAll(/Worker (\d+) started/g)].map((m) => Number(m[1]))).toEqual(workers);
      for (const pid of workers) expect(() => process.kill(pid, 0)).not.toThrow();
      expect(demo.child.exitCode).toBeNull();
    },
  );

  test(
    'one process: every request answered, the process stays, back within 2 s',
    { timeout: 60_000 },
    async () => {
      const demo = await startDemo(['--port', '0'], 1);
      await restartUnderLoad(demo, PHOTOS.single);
      expect(demo.output()).not.toMatch(/Unhandled/);
      expect(demo.child.exitCode).toBeNull();
    },
  );
});
