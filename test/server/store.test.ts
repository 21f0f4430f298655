/**
 * The demo's SQLite store on a real database in a fresh temporary directory per test:
 * settings, migrations, seed, likes, and comment checks that store nothing when they refuse.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { MAX_AUTHOR_LENGTH, MAX_COMMENT_LENGTH } from '../../src/lib/comments';
import { getPhoto } from '../../src/lib/photos';
import {
  defaultDataDir,
  migrate,
  MIGRATIONS,
  openDatabase,
  openStore,
  type Store,
} from '../../src/lib/store.server';
import { describeStoreContract } from './store-contract';

let dir: string;
let store: Store | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-store-'));
});
afterEach(() => {
  void store?.close();
  store = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The database file the store keeps in `dir`, opened beside it (WAL allows a second reader). */
function raw(): Database.Database {
  return new Database(join(dir, 'switchyard-demo.db'));
}

describe('openStore', () => {
  test('creates the directory, and opens in WAL mode with synchronous FULL at the latest schema', async () => {
    const db = openDatabase(join(dir, 'a', 'b'));
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      // 2 is FULL: each commit waits for the WAL to reach the disk.
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
      expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    } finally {
      db.close();
    }
  });

  test('opens in SWITCHYARD_DATA_DIR, else .data in the working directory', async () => {
    vi.stubEnv('SWITCHYARD_DATA_DIR', join(dir, 'env'));
    try {
      store = openStore();
      expect(existsSync(join(dir, 'env', 'switchyard-demo.db'))).toBe(true);
      vi.stubEnv('SWITCHYARD_DATA_DIR', '');
      expect(defaultDataDir()).toBe(resolve('.data'));
    } finally {
      vi.unstubAllEnvs();
    }
  });

  test('seeds a few comments on first start, the same ones every time, and never again', async () => {
    store = openStore(dir);
    const seeded = await store.commentsOf('36');
    expect(seeded.map((c) => [c.author, c.text])).toEqual([
      ['kenji', 'That light is unreal. What time of day was this?'],
      ['ada', 'Just after sunrise, about twenty minutes of it.'],
    ]);
    expect(seeded[0]!.createdAt).toBe(
      new Date(Date.parse(getPhoto('36')!.createdAt) + 2 * 3_600_000).toISOString(),
    );
    expect(await store.commentsOf('35')).toHaveLength(1);
    expect(await store.commentsOf('1')).toEqual([]);
    await store.close();
    store = openStore(dir);
    expect(await store.commentsOf('36')).toHaveLength(2);
  });

  test('migrates a database at version 1, keeping its rows', async () => {
    const db = raw();
    db.exec(MIGRATIONS[0]!);
    db.pragma('user_version = 1');
    db.prepare("INSERT INTO comments (photo_id, author, text) VALUES ('3', 'old', 'from version 1')").run();
    db.close();

    store = openStore(dir);
    expect((await store.commentsOf('3')).map((c) => c.text)).toEqual(['from version 1']);
    // Not a first start: no seed comments.
    expect(await store.commentsOf('36')).toEqual([]);
    const check = raw();
    try {
      expect(check.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
      const index = check.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = ?");
      expect(index.get('comments_by_photo')).toEqual({ name: 'comments_by_photo' });
    } finally {
      check.close();
    }
  });

  test('refuses a database newer than the code', async () => {
    const db = raw();
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => openStore(dir)).toThrow(`schema version ${MIGRATIONS.length + 1}, newer than this code`);
  });

  test('a migration that fails half-way leaves the schema and the version as they were', async () => {
    const db = raw();
    try {
      expect(migrate(db, ['CREATE TABLE a (x)'])).toBe(0);
      const broken = ['CREATE TABLE a (x)', 'CREATE TABLE b (x); CREATE TABLE a (y)'];
      expect(() => migrate(db, broken)).toThrow('table a already exists');
      expect(db.pragma('user_version', { simple: true })).toBe(1);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toBeUndefined();
    } finally {
      db.close();
    }
  });
});

describe('likes', () => {
  test('start at the photo’s generated count; each user’s counts once, and survives a reopen', async () => {
    store = openStore(dir);
    const base = getPhoto('5')!.likes;
    expect(await store.likesOf('5')).toBe(base);
    expect(await store.like('5')).toBe(base + 1);
    expect(await store.setLiked('5', 'ada', true)).toEqual({ liked: true, count: base + 2 });
    expect(await store.setLiked('5', 'ada', true)).toEqual({ liked: true, count: base + 2 });
    expect(await store.likesOf('6')).toBe(getPhoto('6')!.likes);
    await store.close();
    store = openStore(dir);
    expect(await store.likesOf('5')).toBe(base + 2);
    expect(await store.likedBy('ada', ['5', '6'])).toEqual(new Set(['5']));
  });

  test('an unlike that takes nothing back stores nothing', async () => {
    store = openStore(dir);
    expect(await store.setLiked('9', 'ada', false)).toEqual({ liked: false, count: getPhoto('9')!.likes });
    const db = raw();
    expect(db.prepare('SELECT count(*) AS n FROM likes').get()).toEqual({ n: 0 });
    db.close();
  });

  test('of an unknown photo or user are undefined and store nothing', async () => {
    store = openStore(dir);
    expect([
      await store.likesOf('999'),
      await store.like('999'),
      await store.setLiked('__proto__', 'ada', true),
      await store.setLiked('5', 'constructor', true),
    ]).toEqual([undefined, undefined, undefined, undefined]);
    const db = raw();
    expect(
      db.prepare('SELECT (SELECT count(*) FROM likes) + (SELECT count(*) FROM user_likes) AS n').get(),
    ).toEqual({
      n: 0,
    });
    db.close();
  });
});

describe('addComment', () => {
  test('stores a trimmed comment and returns it', async () => {
    store = openStore(dir);
    const result = await store.addComment('1', { author: ' ada ', text: '  Lovely light.\n' });
    expect(result).toMatchObject({
      ok: true,
      comment: { photoId: '1', author: 'ada', text: 'Lovely light.' },
    });
    if (!result.ok) throw new Error('unreachable');
    expect(result.comment.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await store.commentsOf('1')).toEqual([result.comment]);
  });

  test('takes the FormData a no-JS form posts', async () => {
    store = openStore(dir);
    const form = new FormData();
    form.set('author', 'kenji');
    form.set('text', 'From a form');
    expect(await store.addComment('1', form)).toMatchObject({ ok: true, comment: { author: 'kenji' } });
  });

  test(`takes exactly ${MAX_COMMENT_LENGTH} and ${MAX_AUTHOR_LENGTH} characters`, async () => {
    store = openStore(dir);
    const input = { author: 'a'.repeat(MAX_AUTHOR_LENGTH), text: 't'.repeat(MAX_COMMENT_LENGTH) };
    expect((await store.addComment('1', input)).ok).toBe(true);
  });

  const form = new FormData();
  form.set('author', 'ada');
  form.set('text', new Blob(['a file']), 'x.txt');
  test.each([
    ['not an object', '1', 'hello', 'A comment needs your name and some text.'],
    ['null', '1', null, 'A comment needs your name and some text.'],
    ['no author', '1', { text: 'hi' }, 'Enter your name.'],
    ['author a number', '1', { author: 7, text: 'hi' }, 'Enter your name.'],
    ['author blank', '1', { author: '   ', text: 'hi' }, 'Enter your name.'],
    ['text an array', '1', { author: 'ada', text: ['hi'] }, 'Write a comment first.'],
    ['text a file', '1', form, 'Write a comment first.'],
    ['text blank', '1', { author: 'ada', text: ' \n\t ' }, 'Write a comment first.'],
    [
      'text too long',
      '1',
      { author: 'ada', text: 'x'.repeat(MAX_COMMENT_LENGTH + 1) },
      'A comment can be at most 500 characters (this one has 501).',
    ],
    [
      'author too long',
      '1',
      { author: 'a'.repeat(MAX_AUTHOR_LENGTH + 1), text: 'hi' },
      'Your name can be at most 40 characters.',
    ],
    ['unknown photo', '999', { author: 'ada', text: 'hi' }, 'This photo does not exist.'],
    ['prototype-named photo', '__proto__', { author: 'ada', text: 'hi' }, 'This photo does not exist.'],
  ])('refuses %s and stores nothing', async (_name, photoId, input, error) => {
    store = openStore(dir);
    const before = countComments();
    expect(await store.addComment(photoId, input)).toEqual({ ok: false, error });
    expect(countComments()).toBe(before);
  });
});

function countComments(): number {
  const db = raw();
  try {
    return (db.prepare('SELECT count(*) AS n FROM comments').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('commentsOf', () => {
  test('pages: the newest 20, oldest first, and ?before= walks back through every comment once', async () => {
    store = openStore(dir);
    for (let i = 0; i < 45; i++) await store.addComment('2', { author: 'ada', text: `c${i}` });
    const newest = await store.commentsOf('2');
    expect(newest.map((c) => c.text)).toEqual(Array.from({ length: 20 }, (_, i) => `c${25 + i}`));
    const seen: string[] = [];
    for (let page = newest; page.length > 0; page = await store.commentsOf('2', { before: page[0]!.id })) {
      seen.unshift(...page.map((c) => c.text));
    }
    expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => `c${i}`));
    expect(await store.commentCount('2')).toBe(45);
  });
});

describeStoreContract('SQLite', () => ({
  reset: async () => {
    rmSync(dir, { recursive: true, force: true });
  },
  atVersion: async (version, sql) => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    const db = raw();
    try {
      migrate(db, MIGRATIONS.slice(0, version));
      db.exec(sql);
    } finally {
      db.close();
    }
  },
  open: async () => openStore(dir),
  quotaRows: async () => {
    const db = new Database(join(dir, 'switchyard-demo.db'), { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM comment_quota').get() as { n: number }).n;
    } finally {
      db.close();
    }
  },
}));

test('DEMO_COMMENT_LIMIT: 10 a minute by default, as set, off, or a clear error', async () => {
  const { commentLimit } = await import('../../src/lib/db.server');
  expect(commentLimit({})).toEqual({ max: 10, windowMs: 60_000 });
  expect(commentLimit({ DEMO_COMMENT_LIMIT: '3/3600' })).toEqual({ max: 3, windowMs: 3_600_000 });
  expect(commentLimit({ DEMO_COMMENT_LIMIT: 'OFF' })).toBe(false);
  for (const bad of ['0/60', '5/0', '5', 'lots', '5/60/1']) {
    expect(() => commentLimit({ DEMO_COMMENT_LIMIT: bad })).toThrow(
      /^DEMO_COMMENT_LIMIT must be <comments>\/<seconds>/,
    );
  }
});
