/**
 * The routes' effects in the browser: a URL's scripts and loading state come from the build's
 * route table; in an app with intercepting routes, the matcher loaded for them keys the feed's
 * photo links by the modal slot they open in.
 */
import { expect, test } from 'vitest';
import { routeEffects } from '../../client/route-effects';
import { interceptionOf } from '../../client/route-interception';
import { assembleRouteTree } from '../../shared/route-tree';
import { routeTable } from '../../shared/build-route-table';

const FILES = [
  'layout.tsx',
  '(feed)/layout.tsx',
  '(feed)/page.tsx',
  '(feed)/@modal/default.tsx',
  '(feed)/@modal/(.)photos/[id]/page.tsx',
  'photos/[id]/page.tsx',
  'photos/[id]/loading.tsx',
];
const TABLE = routeTable(assembleRouteTree(FILES));

test("a URL's scripts start loading from the table, with whether its branch has a loading state", async () => {
  const asked: (readonly string[])[] = [];
  const effects = routeEffects(TABLE, (files) => (asked.push(files), Promise.resolve(new Map())));
  await effects.preloadRoute('/photos/1');
  await effects.preloadRoute('/nowhere/at/all');
  await effects.preloadRoute('/photos/%E0%A4%A');
  expect(asked).toEqual([['layout.tsx', 'photos/[id]/page.tsx', 'photos/[id]/loading.tsx']]);
  expect(effects.hasLoadingState('/photos/1')).toBe(true);
  expect(effects.hasLoadingState('/')).toBe(false);
  expect(effects.hasLoadingState('/nowhere')).toBe(false);
});

test("the interception matcher keys a link by the slot it opens in, from the slot owner's pages only", () => {
  const keyOf = interceptionOf(FILES);
  expect(keyOf('/photos/1', '/')).toBe('(feed)/@modal');
  expect(keyOf('/photos/1', '/photos/2')).toBeUndefined();
});
