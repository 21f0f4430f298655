/**
 * The status rule at every boundary, each kind, used and unused, on numbers for `now`.
 */
import { describe, expect, test } from 'vitest';
import {
  lastUsedAfterUse,
  statusOf,
  type EntryStatus,
  type PrefetchKind,
} from '../../shared/prefetch-status';

const T0 = 1_000_000; // prefetchTime

// [kind, lastUsedTime offset from T0 (undefined = never used), now offset, expected]
const rows: [PrefetchKind, number | undefined, number, EntryStatus][] = [
  // auto, never used
  ['auto', undefined, 0, 'fresh'],
  ['auto', undefined, 29_999, 'fresh'],
  ['auto', undefined, 30_000, 'stale'],
  ['auto', undefined, 299_999, 'stale'],
  ['auto', undefined, 300_000, 'expired'],
  // auto, used at prefetch time
  ['auto', 0, 29_999, 'reusable'],
  ['auto', 0, 30_000, 'stale'],
  ['auto', 0, 299_999, 'stale'],
  ['auto', 0, 300_000, 'expired'],
  // auto, used late: 30 s from the use, but never past 300 s from the prefetch
  ['auto', 280_000, 299_999, 'reusable'],
  ['auto', 280_000, 300_000, 'reusable'],
  ['auto', 280_000, 309_999, 'reusable'],
  ['auto', 280_000, 310_000, 'expired'],
  // full, never used
  ['full', undefined, 29_999, 'fresh'],
  ['full', undefined, 30_000, 'reusable'],
  ['full', undefined, 299_999, 'reusable'],
  ['full', undefined, 300_000, 'expired'],
  // full, used
  ['full', 0, 29_999, 'reusable'],
  ['full', 0, 30_000, 'reusable'],
  ['full', 0, 299_999, 'reusable'],
  ['full', 0, 300_000, 'expired'],
  ['full', 290_000, 319_999, 'reusable'],
  ['full', 290_000, 320_000, 'expired'],
  // temporary: fresh, reusable or expired, never stale
  ['temporary', undefined, 29_999, 'fresh'],
  ['temporary', undefined, 30_000, 'expired'],
  ['temporary', undefined, 299_999, 'expired'],
  ['temporary', undefined, 300_000, 'expired'],
  ['temporary', 0, 29_999, 'reusable'],
  ['temporary', 0, 30_000, 'expired'],
  ['temporary', 20_000, 49_999, 'reusable'],
  ['temporary', 20_000, 50_000, 'expired'],
  // from a time still to come (the clock was put back): its age is unknown
  ['auto', undefined, -1, 'expired'],
  ['full', 20_000, 19_999, 'expired'],
];

describe('statusOf', () => {
  test.each(rows)('%s, used at %s, now +%i → %s', (kind, used, at, expected) => {
    const entry = { kind, prefetchTime: T0, lastUsedTime: used === undefined ? undefined : T0 + used };
    expect(statusOf(entry, T0 + at)).toBe(expected);
  });

  test('windows come from the policy', () => {
    const entry = { kind: 'auto' as const, prefetchTime: 0 };
    const policy = { freshMs: 5_000, staleMs: 60_000 };
    expect([4_999, 5_000, 59_999, 60_000].map((now) => statusOf(entry, now, policy))).toEqual([
      'fresh',
      'stale',
      'stale',
      'expired',
    ]);
  });
});

describe('lastUsedAfterUse', () => {
  test('the first use sets lastUsedTime', () => {
    expect(lastUsedAfterUse({ kind: 'auto', prefetchTime: T0 }, T0 + 10_000)).toBe(T0 + 10_000);
  });

  test('a later use of a fresh or reusable entry leaves it', () => {
    const used = { kind: 'auto' as const, prefetchTime: T0, lastUsedTime: T0 + 10_000 };
    expect(lastUsedAfterUse(used, T0 + 20_000)).toBe(T0 + 10_000);
    const full = { kind: 'full' as const, prefetchTime: T0, lastUsedTime: T0 + 10_000 };
    expect(lastUsedAfterUse(full, T0 + 200_000)).toBe(T0 + 10_000); // reusable by rule 3
  });

  test('using a stale entry sets it again, which makes the entry reusable for 30 s', () => {
    const used = { kind: 'auto' as const, prefetchTime: T0, lastUsedTime: T0 + 10_000 };
    const now = T0 + 100_000;
    expect(statusOf(used, now)).toBe('stale');
    const after = { ...used, lastUsedTime: lastUsedAfterUse(used, now) };
    expect(after.lastUsedTime).toBe(now);
    expect(statusOf(after, now + 29_999)).toBe('reusable');
    expect(statusOf(after, now + 30_000)).toBe('stale');
  });
});
