/**
 * Scroll, focus and the announcement belong to a commit: applied once for it, never again when
 * a later update (a navigation starting) changes the snapshot without committing.
 */
import { expect, test } from 'vitest';
import { oncePerCommit, readCommitted, type RouterView } from '../../client/router-root';
import type { RouterSnapshot } from '../../client/router';

test('each commit is applied once; a pending update of the same commit is not applied again', () => {
  const applied: [number, string][] = [];
  const view: RouterView = { afterCommit: (s) => applied.push([s.commit, s.scroll.kind]) };
  const apply = oncePerCommit(view);
  const committed = { commit: 1, scroll: { kind: 'top' }, announce: true, pending: false } as RouterSnapshot;
  apply(committed);
  apply({ ...committed, pending: true }); // the next click: the page has not changed yet
  apply({ ...committed, pending: false }); // that navigation fell back or was cancelled
  apply({ ...committed, commit: 2, scroll: { kind: 'restore', x: 0, y: 900 } });
  expect(applied).toEqual([
    [1, 'top'],
    [2, 'restore'],
  ]);
});

test('the root reads a new snapshot only when the page changes: never for pending alone', () => {
  const state = {} as RouterSnapshot['state'];
  const committed: RouterSnapshot = {
    ...{ state, modules: new Map(), href: '/', commit: 0, scroll: { kind: 'keep' } },
    ...{ announce: false, pending: false },
  };
  let current = committed;
  const read = readCommitted(() => current);
  expect(read()).toBe(committed);
  current = { ...committed, pending: true };
  expect(read()).toBe(committed);
  // The loaded router's first snapshot: the same page, its own objects for the rest.
  current = { ...committed, scroll: { kind: 'keep' }, pending: false };
  expect(read()).toBe(committed);
  current = { ...committed, commit: 1, pending: true };
  expect(read()).toBe(current);
  current = { ...current, state: { ...state } }; // data filling in a loading state
  expect(read()).toBe(current);
  current = { ...current, modules: new Map(current.modules) };
  expect(read()).toBe(current);
});
