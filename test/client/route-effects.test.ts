/**
 * The route tree's effects in the browser: an app without intercepting routes gets no
 * interception matcher (the browser never loads its code); one with them keys the feed's
 * photo links by the modal slot they open in.
 */
import { expect, test } from 'vitest';
import { intercepts, routeEffects } from '../../client/route-effects';
import { matchInterception } from '../../shared/intercept';

const FILES = [
  'layout.tsx',
  '(feed)/layout.tsx',
  '(feed)/page.tsx',
  '(feed)/@modal/default.tsx',
  '(feed)/@modal/(.)photos/[id]/page.tsx',
  'photos/[id]/page.tsx',
];
const load = () => Promise.resolve(new Map());

test('an app intercepts when a route file sits below a (.), (..) or (...) folder', () => {
  expect(intercepts(FILES)).toBe(true);
  expect(intercepts(['@modal/(..)photos/[id]/page.tsx'])).toBe(true);
  expect(intercepts(['a/@modal/(...)photos/page.tsx'])).toBe(true);
  expect(intercepts(['(feed)/page.tsx', 'a(.)b/page.tsx'])).toBe(false);
  // The route tree's own reading of a folder name: a bare marker intercepts nothing.
  expect(intercepts(['(.)/page.tsx'])).toBe(false);
  expect(intercepts(FILES.filter((file) => !file.includes('(.)')))).toBe(false);
});

test('interceptions are matched only with the matcher: without it there is no interception key', () => {
  const without = routeEffects(FILES, load);
  expect(without.interceptionOf).toBeUndefined();
  const withMatcher = routeEffects(FILES, load, matchInterception);
  expect(withMatcher.interceptionOf?.('/photos/1', '/')).toBe('(feed)/@modal');
  expect(withMatcher.interceptionOf?.('/photos/1', '/photos/2')).toBeUndefined();
});
