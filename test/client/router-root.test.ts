/**
 * Scroll, focus and the announcement belong to a commit: applied once for it, never again when
 * a later update (a navigation starting) changes the snapshot without committing.
 */
import { expect, test } from 'vitest';
import { oncePerCommit, type RouterView } from '../../client/router-root';
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
