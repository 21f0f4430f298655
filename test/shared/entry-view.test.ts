/** How cache entries read to the devtools and the tests: statuses and times left, by the rule. */
import { expect, test } from 'vitest';
import { viewEntries } from '../../shared/entry-view';
import { createPrefetchCache } from '../../shared/prefetch-cache';

const T0 = 5_000_000;
const never = () => new Promise<string>(() => {});

test('each entry: its status, the next change and the expiry, and where its data is', () => {
  const cache = createPrefetchCache<string>();
  cache.add('/a', 'auto', never(), T0);
  cache.add('/t', 'temporary', never(), T0);
  const used = cache.add('/f', 'full', never(), T0);
  cache.use(used, T0 + 10_000);
  const policy = { freshMs: 30_000, staleMs: 300_000 };
  expect(viewEntries(cache, T0 + 20_000)).toEqual([
    // Fresh until 30 s, then stale until 300 s: two different answers.
    {
      key: '/a',
      kind: 'auto',
      status: 'fresh',
      prefetchTime: T0,
      lastUsedTime: null,
      nextChangeIn: 10_000,
      expiresIn: 280_000,
      policy,
      data: 'pending',
    },
    {
      key: '/t',
      kind: 'temporary',
      status: 'fresh',
      prefetchTime: T0,
      lastUsedTime: null,
      nextChangeIn: 10_000,
      expiresIn: 10_000,
      policy,
      data: 'pending',
    },
    // Used at 10 s: reusable until 40 s by the fresh window, then still reusable (full) until
    // 300 s: the end of the fresh window changes nothing, the next change is the expiry.
    {
      key: '/f',
      kind: 'full',
      status: 'reusable',
      prefetchTime: T0,
      lastUsedTime: T0 + 10_000,
      nextChangeIn: 280_000,
      expiresIn: 280_000,
      policy,
      data: 'pending',
    },
  ]);
  expect(viewEntries(cache, T0 + 300_000).map((e) => [e.key, e.status, e.nextChangeIn, e.expiresIn])).toEqual(
    [
      ['/a', 'expired', 0, 0],
      ['/t', 'expired', 0, 0],
      ['/f', 'expired', 0, 0],
    ],
  );
});
