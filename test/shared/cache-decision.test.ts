/**
 * The cache decision as a table: one row per entry a navigation can find, and what it does.
 */
import { describe, expect, test } from 'vitest';
import {
  chooseSource,
  planFromEntry,
  planOwnFetch,
  shouldPrefetch,
  type EntryPlan,
  type FoundEntry,
  type OwnFetchPlan,
} from '../../shared/cache-decision';
import type { EntryStatus, PrefetchKind } from '../../shared/prefetch-status';

describe('chooseSource', () => {
  const rows: [string, FoundEntry | undefined, 'entry' | 'fetch'][] = [
    ['missing', undefined, 'fetch'],
    ['expired', { status: 'expired', failed: false }, 'fetch'],
    ['failed, fresh', { status: 'fresh', failed: true }, 'fetch'],
    ['failed, stale', { status: 'stale', failed: true }, 'fetch'],
    ['fresh', { status: 'fresh', failed: false }, 'entry'],
    ['reusable', { status: 'reusable', failed: false }, 'entry'],
    ['stale', { status: 'stale', failed: false }, 'entry'],
  ];
  test.each(rows)('%s → %s', (_name, found, source) => {
    expect(chooseSource(found)).toBe(source);
  });
});

describe('planFromEntry', () => {
  const rows: [string, 'fresh' | 'reusable' | 'stale', boolean, EntryPlan][] = [
    ['fresh, whole', 'fresh', false, { first: 'entry', after: undefined }],
    ['reusable, whole', 'reusable', false, { first: 'entry', after: undefined }],
    ['fresh, partial', 'fresh', true, { first: 'entry', after: 'rest' }],
    ['reusable, partial', 'reusable', true, { first: 'entry', after: 'rest' }],
    ['stale, whole', 'stale', false, { first: 'refetch', after: undefined }],
    ['stale, partial', 'stale', true, { first: 'entry', after: 'full' }],
  ];
  test.each(rows)('%s', (_name, status, partial, plan) => {
    expect(planFromEntry(status, partial)).toEqual(plan);
  });
});

describe('planOwnFetch', () => {
  const rows: [string, 'push' | 'replace' | 'pop' | 'refresh', boolean, OwnFetchPlan][] = [
    ['push, loading state', 'push', true, { mode: 'auto', temporary: true }],
    ['replace, loading state', 'replace', true, { mode: 'auto', temporary: true }],
    ['push, none', 'push', false, { mode: undefined, temporary: true }],
    ['pop, loading state', 'pop', true, { mode: undefined, temporary: false }],
    ['refresh, loading state', 'refresh', true, { mode: undefined, temporary: false }],
  ];
  test.each(rows)('%s', (_name, kind, hasLoadingState, plan) => {
    expect(planOwnFetch(kind, hasLoadingState)).toEqual(plan);
  });
});

describe('shouldPrefetch', () => {
  const rows: [string, { status: EntryStatus; kind: PrefetchKind } | undefined, 'auto' | 'full', boolean][] =
    [
      ['missing', undefined, 'auto', true],
      ['expired', { status: 'expired', kind: 'auto' }, 'auto', true],
      ['fresh', { status: 'fresh', kind: 'auto' }, 'auto', false],
      ['reusable', { status: 'reusable', kind: 'full' }, 'auto', false],
      ['stale (a navigation can use it)', { status: 'stale', kind: 'auto' }, 'auto', false],
      ['fresh auto, asked full (upgrade)', { status: 'fresh', kind: 'auto' }, 'full', true],
      ['stale auto, asked full (upgrade)', { status: 'stale', kind: 'auto' }, 'full', true],
      ['fresh full, asked full', { status: 'fresh', kind: 'full' }, 'full', false],
      ['temporary, asked full', { status: 'fresh', kind: 'temporary' }, 'full', false],
    ];
  test.each(rows)('%s', (_name, existing, kind, asks) => {
    expect(shouldPrefetch(existing, kind)).toBe(asks);
  });
});
