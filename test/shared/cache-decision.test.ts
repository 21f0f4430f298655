/**
 * The cache decision as a table: one row per entry a navigation can find, and what it does.
 */
import { describe, expect, test } from 'vitest';
import { chooseSource, planFromEntry, type EntryPlan, type FoundEntry } from '../../shared/cache-decision';

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
