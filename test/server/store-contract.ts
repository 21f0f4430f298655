/**
 * One suite for every implementation of the demo's store: each database must behave the same to
 * the pages and actions above it. `open` opens another connection to the one database the test
 * uses (as a second server process would); `reset` gives each test a fresh database.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { MAX_COMMENT_LENGTH } from '../../src/lib/comments';
import { getPhoto, listPhotos } from '../../src/lib/photos';
import type { CommentLimit, Sender, Store } from '../../src/lib/store-contract';

export interface StoreUnderTest {
  reset(): Promise<void>;
  open(): Promise<Store>;
  /** Rows in the comment limit's table, read straight from the database. */
  quotaRows(): Promise<number>;
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

    test('likes start from the generated count, move by one, never go below zero', async () => {
      const store = await open();
      // Photo 22 has the fewest generated likes, so unliking it down to zero stays short.
      const base = getPhoto('22')!.likes;
      expect(base).toBe(Math.min(...listPhotos().map((photo) => photo.likes)));
      expect(await store.likesOf('22')).toBe(base);
      expect(await store.like('22')).toBe(base + 1);
      expect(await store.unlike('22')).toBe(base);
      for (let i = 0; i < base + 2; i++) await store.unlike('22');
      expect(await store.likesOf('22')).toBe(0);
      expect(await store.like('22')).toBe(1);
    });

    test('an unknown photo has no likes and takes none', async () => {
      const store = await open();
      expect(await store.likesOf('nope')).toBeUndefined();
      expect(await store.like('nope')).toBeUndefined();
      expect(await store.unlike('nope')).toBeUndefined();
    });

    test('likes asked for all at once, as the feed asks, are each photo its own, as asked one by one', async () => {
      const store = await open();
      await store.like('3');
      await store.like('3');
      await store.unlike('22');
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
      store.addComment('5', { author: 'ada', text }, sender);

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
  });
}
