import { describe, expect, test } from 'vitest';
import { cacheKey, createPrefetchCache } from '../../shared/prefetch-cache';
import { deferred } from '../helpers/deferred';

const T0 = 5_000_000;
const never = () => new Promise<string>(() => {});

describe('prefetch cache', () => {
  test('keys are pathname plus search, never the hash', () => {
    expect(cacheKey(new URL('https://x.example/photos/3?q=1#comments'))).toBe('/photos/3?q=1');
    expect(cacheKey(new URL('https://x.example/photos/3'))).not.toBe(
      cacheKey(new URL('https://x.example/photos/3?q=1')),
    );
  });

  test('an entry settles in place: pending, then resolved', async () => {
    const cache = createPrefetchCache<string>();
    const reply = deferred<string>();
    const entry = cache.add('/a', 'auto', reply.promise, T0);
    expect(entry.result.state).toBe('pending');
    reply.resolve('data');
    await reply.promise;
    expect(entry.result).toEqual({ state: 'resolved', value: 'data' });
  });

  test('a value that declares its own windows: its entry is judged by them once it settles', async () => {
    const own = { freshMs: 1_000, staleMs: 2_000 };
    const cache = createPrefetchCache<string>({
      ownPolicy: (value) => (value === 'short' ? own : undefined),
    });
    const reply = deferred<string>();
    const entry = cache.add('/a', 'auto', reply.promise, T0);
    const other = cache.add('/b', 'auto', Promise.resolve('plain'), T0);
    expect(entry.policy).toBeUndefined();
    reply.resolve('short');
    await reply.promise;
    expect(entry.policy).toEqual(own);
    expect(cache.status(entry, T0 + 2_000)).toBe('expired');
    expect(other.policy).toBeUndefined();
    expect(cache.status(other, T0 + 2_000)).toBe('fresh');
  });

  test('a failed prefetch is kept, as failed, until it expires (its link is not fetched again meanwhile)', async () => {
    const cache = createPrefetchCache<string>();
    const reply = deferred<string>();
    cache.add('/a', 'auto', reply.promise, T0);
    const error = new Error('offline');
    reply.reject(error);
    await reply.promise.catch(() => {});
    expect(cache.get('/a')?.result).toEqual({ state: 'rejected', error });
    expect(cache.prune(T0 + 299_999)).toBe(0);
    expect(cache.prune(T0 + 300_000)).toBe(1);
    expect(cache.get('/a')).toBeUndefined();
  });

  test('use: the first sets lastUsedTime, a stale use sets it again, others leave it', () => {
    const cache = createPrefetchCache<string>();
    const entry = cache.add('/a', 'auto', never(), T0);
    cache.use(entry, T0 + 1_000);
    expect(entry.lastUsedTime).toBe(T0 + 1_000);
    cache.use(entry, T0 + 20_000);
    expect(entry.lastUsedTime).toBe(T0 + 1_000);
    expect(cache.status(entry, T0 + 100_000)).toBe('stale');
    cache.use(entry, T0 + 100_000);
    expect(entry.lastUsedTime).toBe(T0 + 100_000);
    expect(cache.status(entry, T0 + 100_001)).toBe('reusable');
  });

  test('prune drops exactly the expired entries', () => {
    const cache = createPrefetchCache<string>();
    cache.add('/auto-old', 'auto', never(), T0);
    cache.add('/full-old', 'full', never(), T0);
    cache.add('/temp-old', 'temporary', never(), T0);
    cache.add('/auto-new', 'auto', never(), T0 + 290_000);
    cache.add('/temp-new', 'temporary', never(), T0 + 290_000);
    const now = T0 + 300_000;
    expect(cache.prune(now)).toBe(3);
    expect(cache.entries().map((e) => `${e.key} ${cache.status(e, now)}`)).toEqual([
      '/auto-new fresh',
      '/temp-new fresh',
    ]);
  });

  test('a route may declare its own windows', () => {
    const cache = createPrefetchCache<string>();
    const entry = cache.add('/live', 'auto', never(), T0, { freshMs: 1_000, staleMs: 5_000 });
    expect([999, 1_000, 4_999, 5_000].map((t) => cache.status(entry, T0 + t))).toEqual([
      'fresh',
      'stale',
      'stale',
      'expired',
    ]);
  });

  test('invalidate drops only what a path affects', () => {
    const cache = createPrefetchCache<string>();
    for (const key of [
      '/photos/3',
      '/photos/3?tab=comments',
      '/photos/30',
      '/photos/3/edit',
      '/photos',
      '/',
    ]) {
      cache.add(key, 'auto', never(), T0);
    }
    expect(cache.invalidate('/photos/3')).toBe(2);
    expect(cache.entries().map((e) => e.key)).toEqual(['/photos/30', '/photos/3/edit', '/photos', '/']);
    expect(cache.invalidate('/photos', 'layout')).toBe(3);
    expect(cache.entries().map((e) => e.key)).toEqual(['/']);
  });

  test('an intercepted variant is its own key, and goes with its path on invalidate', () => {
    const url = { pathname: '/photos/3', search: '?tab=c' };
    expect(cacheKey(url)).toBe('/photos/3?tab=c');
    expect(cacheKey(url, '(feed)/@modal')).toBe('/photos/3?tab=c (feed)/@modal');
    const cache = createPrefetchCache<string>();
    for (const key of ['/photos/3', '/photos/3 (feed)/@modal', '/photos/30 (feed)/@modal']) {
      cache.add(key, 'auto', never(), T0);
    }
    expect(cache.invalidate('/photos/3')).toBe(2);
    expect(cache.entries().map((e) => e.key)).toEqual(['/photos/30 (feed)/@modal']);
  });

  test('the size bound drops the least recently used', () => {
    const cache = createPrefetchCache<string>({ maxEntries: 3 });
    const a = cache.add('/a', 'auto', never(), T0);
    cache.add('/b', 'auto', never(), T0);
    cache.add('/c', 'auto', never(), T0);
    cache.use(a, T0 + 1);
    cache.add('/d', 'auto', never(), T0 + 2);
    expect(cache.entries().map((e) => e.key)).toEqual(['/c', '/a', '/d']);
  });
});
