/**
 * One suite for every implementation of the demo's store: each database must behave the same to
 * the pages and actions above it. `open` opens another connection to the one database the test
 * uses (as a second server process would); `reset` gives each test a fresh database.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MAX_COMMENT_LENGTH } from '../../src/lib/comments';
import { getPhoto, listPhotos } from '../../src/lib/photos';
import {
  NO_SUCH_USER,
  USER_LIST_LIMIT,
  type CommentLimit,
  type Sender,
  type Store,
} from '../../src/lib/store-contract';
import { expected, runStorm, stormResult } from '../helpers/like-storm';

export interface StoreUnderTest {
  reset(): Promise<void>;
  open(): Promise<Store>;
  /** Rows in the comment limit's table, read straight from the database. */
  quotaRows(): Promise<number>;
  /**
   * Replaces the database with one at schema `version` (as code of that version left it), then
   * runs `sql` in it: statements both databases read.
   */
  atVersion(version: number, sql: string): Promise<void>;
}

export function describeStoreContract(name: string, subject: () => StoreUnderTest | undefined): void {
  describe(`${name}: the store contract`, () => {
    const opened: Store[] = [];
    const open = async () => {
      const store = await subject()!.open();
      opened.push(store);
      return store;
    };
    beforeEach(async () => {
      await subject()!.reset();
    });
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    test('seeds a few comments on first start, the same ones every time, and never again', async () => {
      const store = await open();
      const seeded = await store.commentsOf('36');
      expect(seeded.map((c) => [c.author, c.text])).toEqual([
        ['kenji', 'That light is unreal. What time of day was this?'],
        ['ada', 'Just after sunrise, about twenty minutes of it.'],
      ]);
      expect(seeded[0]!.createdAt).toBe(
        new Date(Date.parse(getPhoto('36')!.createdAt) + 2 * 3_600_000).toISOString(),
      );
      expect(await store.commentsOf('1')).toEqual([]);
      const again = await open();
      expect(await again.commentsOf('36')).toEqual(seeded);
    });

    test('a user likes a photo once however often it is set, and takes back only their own like', async () => {
      const store = await open();
      const base = getPhoto('22')!.likes;
      expect(await store.likesOf('22')).toBe(base);
      expect(await store.setLiked('22', 'ada', true)).toEqual({ liked: true, count: base + 1 });
      // The state wanted, not a flip: a retried or doubled post changes nothing more.
      expect(await store.setLiked('22', 'ada', true)).toEqual({ liked: true, count: base + 1 });
      expect(await store.setLiked('22', 'kenji', true)).toEqual({ liked: true, count: base + 2 });
      expect(await store.setLiked('22', 'ada', false)).toEqual({ liked: false, count: base + 1 });
      expect(await store.setLiked('22', 'ada', false)).toEqual({ liked: false, count: base + 1 });
      // Nothing to take back for a user who never liked it: never below the generated count.
      expect(await store.setLiked('22', 'mira', false)).toEqual({ liked: false, count: base + 1 });
      // A like owned by nobody (signed out) adds one that no user's unlike takes away.
      expect(await store.like('22')).toBe(base + 2);
      expect(await store.setLiked('22', 'kenji', false)).toEqual({ liked: false, count: base + 1 });
      expect(await store.setLiked('22', 'kenji', false)).toEqual({ liked: false, count: base + 1 });
      expect(await store.likesOf('22')).toBe(base + 1);
      expect(await (await open()).likesOf('22')).toBe(base + 1);
    });

    test('an unknown photo or user has no likes and takes none', async () => {
      const store = await open();
      expect(await store.likesOf('nope')).toBeUndefined();
      expect(await store.like('nope')).toBeUndefined();
      expect(await store.setLiked('nope', 'ada', true)).toBeUndefined();
      for (const nobody of ['nobody', '__proto__', '', 'Ada']) {
        expect(await store.setLiked('3', nobody, true)).toBeUndefined();
        expect(await store.likedBy(nobody, ['3'])).toEqual(new Set());
        expect(await store.photosLikedBy(nobody)).toEqual([]);
      }
      expect(await store.likesOf('3')).toBe(getPhoto('3')!.likes);
      expect(await store.likedBy('ada', ['nope', '3'])).toEqual(new Set());
    });

    test('likedBy: which of the photos asked for the user likes; photosLikedBy: the latest liked first', async () => {
      const store = await open();
      await store.setLiked('3', 'ada', true);
      await store.setLiked('5', 'ada', true);
      await store.setLiked('5', 'kenji', true);
      const feed = [...listPhotos().map((photo) => photo.id), 'nope'];
      expect(await store.likedBy('ada', feed)).toEqual(new Set(['3', '5']));
      expect(await store.likedBy('kenji', feed)).toEqual(new Set(['5']));
      expect(await store.likedBy('ada', ['4', '5'])).toEqual(new Set(['5']));
      expect(await store.likedBy('ada', [])).toEqual(new Set());
      expect(await store.likedBy('mira', feed)).toEqual(new Set());
      expect(await store.photosLikedBy('ada')).toEqual(['5', '3']);
      // Liked again: the latest again.
      await store.setLiked('3', 'ada', false);
      await store.setLiked('3', 'ada', true);
      expect(await store.photosLikedBy('ada')).toEqual(['3', '5']);
      expect(await store.photosLikedBy('ada', 1)).toEqual(['3']);
      for (const limit of [0, -1, Number.NaN]) expect(await store.photosLikedBy('ada', limit)).toEqual([]);
      expect(await (await open()).photosLikedBy('kenji', Number.POSITIVE_INFINITY)).toEqual(['5']);
    });

    test('likes asked for all at once, as the feed asks, are each photo its own, as asked one by one', async () => {
      const store = await open();
      await store.like('3');
      await store.like('3');
      await store.setLiked('22', 'ada', true);
      const ids = [...listPhotos().map((photo) => photo.id), 'nope', '3'];
      const oneByOne: (number | undefined)[] = [];
      for (const id of ids) oneByOne.push(await store.likesOf(id));
      expect(await Promise.all(ids.map((id) => store.likesOf(id)))).toEqual(oneByOne);
      expect(oneByOne.slice(-2)).toEqual([undefined, getPhoto('3')!.likes + 2]);
    });

    test('100 likes at once through two connections add exactly 100', async () => {
      const [a, b] = [await open(), await open()];
      const base = (await a.likesOf('7'))!;
      const counts = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).like('7')));
      expect(await b.likesOf('7')).toBe(base + 100);
      // Each like saw its own count: none was lost or doubled.
      expect(new Set(counts).size).toBe(100);
      expect(Math.max(...(counts as number[]))).toBe(base + 100);
    });

    test('six users each signed in on two connections, setting likes of a photo at once: every count exact', async () => {
      const [a, b] = [await open(), await open()];
      const photoIds = listPhotos()
        .slice(0, 12)
        .map((photo) => photo.id);
      await runStorm([a, b], { photoIds, steps: 5 });
      expect(await stormResult(b, photoIds)).toEqual(expected(photoIds));
    });

    test('a comment is there, with its id and time, for another connection and after a reopen', async () => {
      const store = await open();
      const result = await store.addComment('4', { author: ' ada ', text: ' Lovely ' });
      expect(result).toMatchObject({ ok: true, comment: { photoId: '4', author: 'ada', text: 'Lovely' } });
      const { comment } = result as { comment: { id: number; createdAt: string } };
      expect(comment.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const other = await open();
      expect(await other.commentsOf('4')).toEqual([comment]);
      await store.close();
      opened.splice(opened.indexOf(store), 1);
      expect(await (await open()).commentsOf('4')).toEqual([comment]);
    });

    test('a refused comment says why and stores nothing', async () => {
      const store = await open();
      const refusals: [unknown, RegExp][] = [
        [{ author: 'ada', text: '' }, /Write a comment/],
        [{ author: 'ada', text: 'x'.repeat(MAX_COMMENT_LENGTH + 1) }, /at most/],
        [{ author: 'ada', text: 'a\u0000b' }, /cannot contain/],
        [{ author: 'a\u0000', text: 'hi' }, /cannot contain/],
        [null, /needs your name/],
      ];
      for (const [input, message] of refusals) {
        const result = await store.addComment('4', input);
        expect(result.ok).toBe(false);
        expect((result as { error: string }).error).toMatch(message);
      }
      expect(await store.addComment('nope', { author: 'ada', text: 'hi' })).toEqual({
        ok: false,
        error: 'This photo does not exist.',
      });
      expect(await store.commentsOf('4')).toEqual([]);
    });

    test('comments come a page at a time, the newest page first, each page oldest first', async () => {
      const store = await open();
      for (let i = 1; i <= 5; i++) await store.addComment('4', { author: 'ada', text: `c${i}` });
      const newest = await store.commentsOf('4', { limit: 2 });
      expect(newest.map((c) => c.text)).toEqual(['c4', 'c5']);
      const older = await store.commentsOf('4', { before: newest[0]!.id, limit: 2 });
      expect(older.map((c) => c.text)).toEqual(['c2', 'c3']);
      expect((await store.commentsOf('4', { before: older[0]!.id })).map((c) => c.text)).toEqual(['c1']);
    });

    const LIMIT: CommentLimit = { max: 3, windowMs: 60_000 };
    const from = (client: string, at: number): Sender => ({ client, at, limit: LIMIT });
    const post = (store: Store, sender: Sender, text = 'hi') =>
      store.addComment('5', { author: 'ada', text }, { sender });

    test('the comment limit: max per client and window, counted across connections, then the next window', async () => {
      const [a, b] = [await open(), await open()];
      const start = 10 * LIMIT.windowMs;
      expect(await post(a, from('1.2.3.4', start))).toMatchObject({ ok: true });
      expect(await post(b, from('1.2.3.4', start + 1_000))).toMatchObject({ ok: true });
      expect(await post(a, from('1.2.3.4', start + 2_000))).toMatchObject({ ok: true });
      const refused = await post(b, from('1.2.3.4', start + 20_500), 'one too many');
      expect(refused).toEqual({
        ok: false,
        error: 'You can post 3 comments every 60 seconds; try again in 40 s.',
        retryAfterSeconds: 40,
      });
      // A refusal is not counted, nor stored; another client has a count of its own.
      expect(await post(a, from('5.6.7.8', start + 21_000))).toMatchObject({ ok: true });
      expect((await a.commentsOf('5')).map((c) => c.text)).not.toContain('one too many');
      expect(await post(a, from('1.2.3.4', start + LIMIT.windowMs - 1))).toMatchObject({
        retryAfterSeconds: 1,
      });
      expect(await post(b, from('1.2.3.4', start + LIMIT.windowMs))).toMatchObject({ ok: true });
      // Without a sender (the seed, a script of the operator's) nothing is counted.
      for (let i = 0; i < 5; i++)
        expect(await a.addComment('5', { author: 'ops', text: `${i}` })).toMatchObject({ ok: true });
    });

    test('30 posts at once from one client through two connections: exactly the limit is stored', async () => {
      const [a, b] = [await open(), await open()];
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) => post(i % 2 ? a : b, from('9.9.9.9', 5_000), `burst ${i}`)),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(LIMIT.max);
      expect(await a.commentCount('5')).toBe(LIMIT.max);
    });

    test('ended windows are deleted as posts come: the table holds the current window only', async () => {
      const store = await open();
      for (let client = 0; client < 20; client++) await post(store, from(`10.0.0.${client}`, 0));
      expect(await subject()!.quotaRows()).toBe(20);
      await post(store, from('10.0.1.1', LIMIT.windowMs));
      expect(await subject()!.quotaRows()).toBe(1);
      // A key longer than any address is cut, and still counted as one client.
      const long = 'x'.repeat(10_000);
      for (let i = 0; i < LIMIT.max; i++) await post(store, from(long + i, LIMIT.windowMs));
      expect(await subject()!.quotaRows()).toBe(2);
    });

    test('a signed-in user’s comment: their handle is the author, a typed name is ignored', async () => {
      const store = await open();
      const mine = await store.addComment('4', { author: 'someone else', text: ' Mine ' }, { handle: 'ada' });
      expect(mine).toMatchObject({
        ok: true,
        comment: { photoId: '4', author: 'ada', authorHandle: 'ada', text: 'Mine' },
      });
      // No name needed, from a plain object or the form.
      const form = new FormData();
      form.set('text', 'From the form');
      expect(await store.addComment('6', form, { handle: 'kenji' })).toMatchObject({
        ok: true,
        comment: { author: 'kenji', authorHandle: 'kenji' },
      });
      // Signed out: the typed name, and no handle, even when it is a user's handle.
      expect(await store.addComment('4', { author: 'ada', text: 'typed' })).toMatchObject({
        ok: true,
        comment: { author: 'ada', authorHandle: null },
      });
      expect((await (await open()).commentsOf('4')).map((c) => [c.author, c.authorHandle, c.text])).toEqual([
        ['ada', 'ada', 'Mine'],
        ['ada', null, 'typed'],
      ]);
      // The text is still checked; a handle that names no user is refused; neither is stored.
      expect(await store.addComment('5', { text: ' ' }, { handle: 'ada' })).toEqual({
        ok: false,
        error: 'Write a comment first.',
      });
      expect(await store.addComment('5', null, { handle: 'ada' })).toEqual({
        ok: false,
        error: 'Write a comment first.',
      });
      for (const nobody of ['nobody', '__proto__', '']) {
        expect(await store.addComment('5', { author: 'x', text: 'hi' }, { handle: nobody })).toEqual({
          ok: false,
          error: NO_SUCH_USER,
        });
      }
      expect(await store.commentCount('5')).toBe(0);
      // Counted against the sender's limit as any other post.
      expect(await post(store, from('1.1.1.1', 0), 'a')).toMatchObject({ ok: true });
      const limited = await store.addComment(
        '5',
        { text: 'b' },
        { handle: 'mira', sender: from('1.1.1.1', 1) },
      );
      expect(limited).toMatchObject({ ok: true, comment: { authorHandle: 'mira' } });
      expect(await store.commentsBy('mira')).toHaveLength(1);
    });

    test('commentsBy: a user’s signed-in comments on every photo, newest first, a page at a time', async () => {
      const store = await open();
      await store.addComment('4', { text: 'c1' }, { handle: 'ada' });
      await store.addComment('9', { text: 'c2' }, { handle: 'ada' });
      await store.addComment('9', { text: 'k1' }, { handle: 'kenji' });
      await store.addComment('4', { author: 'ada', text: 'typed' });
      await store.addComment('4', { text: 'c3' }, { handle: 'ada' });
      const newest = await store.commentsBy('ada', { limit: 2 });
      expect(newest.map((c) => [c.photoId, c.text])).toEqual([
        ['4', 'c3'],
        ['9', 'c2'],
      ]);
      expect((await store.commentsBy('ada', { before: newest[1]!.id })).map((c) => c.text)).toEqual(['c1']);
      // The seed's comments were typed names: nobody's, as is every signed-out comment.
      expect((await store.commentsBy('kenji')).map((c) => c.text)).toEqual(['k1']);
      expect(await store.commentsBy('lena')).toEqual([]);
      expect(await store.commentsBy('nobody')).toEqual([]);
    });

    test(`commentsBy gives at most ${USER_LIST_LIMIT} however many are asked for`, async () => {
      const store = await open();
      for (let i = 0; i <= USER_LIST_LIMIT; i++)
        await store.addComment('2', { text: `c${i}` }, { handle: 'noor' });
      expect(await store.commentsBy('noor', { limit: 1_000 })).toHaveLength(USER_LIST_LIMIT);
      expect(await store.commentsBy('noor', { limit: -1 })).toEqual([]);
      expect((await store.commentsBy('noor')).map((c) => c.text)[0]).toBe(`c${USER_LIST_LIMIT}`);
    });

    test('a database of the schema before users is upgraded in place: counts kept, never below the generated one', async () => {
      const [kept, raised, untouched] = (['3', '22', '9'] as const).map((id) => getPhoto(id)!.likes);
      await subject()!.atVersion(
        3,
        `INSERT INTO likes (photo_id, count) VALUES ('3', ${kept! + 5}), ('22', 0), ('9', ${untouched});
         INSERT INTO comments (photo_id, author, text) VALUES ('4', 'old', 'from before users');`,
      );
      const store = await open();
      // Likes given before likes had owners stay in the count; the old API's unlikes below the
      // generated count are raised to it.
      expect(await store.likesOf('3')).toBe(kept! + 5);
      expect(await store.likesOf('22')).toBe(raised);
      expect(await store.likesOf('9')).toBe(untouched);
      expect(await store.commentsOf('4')).toMatchObject([
        { author: 'old', authorHandle: null, text: 'from before users' },
      ]);
      // Not a first start: no seed.
      expect(await store.commentsOf('36')).toEqual([]);
      // Users' likes go on top, and their unlikes never take the old ones.
      expect(await store.setLiked('3', 'ada', true)).toEqual({ liked: true, count: kept! + 6 });
      expect(await store.setLiked('3', 'ada', false)).toEqual({ liked: false, count: kept! + 5 });
      expect(await store.setLiked('22', 'ada', false)).toEqual({ liked: false, count: raised });
      expect(await store.addComment('4', { text: 'new' }, { handle: 'lena' })).toMatchObject({ ok: true });
      expect((await store.commentsBy('lena')).map((c) => c.text)).toEqual(['new']);
    });
  });
}
