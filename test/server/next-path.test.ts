/**
 * The demo's `?next=` after signing in: a path on this site, or the feed. Each row is a way an
 * open redirect is usually tried.
 */
import { expect, test } from 'vitest';
import { nextPath, signInHref } from '../../src/lib/next-path';

test.each([
  ['/me', '/me'],
  ['/photos/3?before=9#c', '/photos/3?before=9#c'],
  ['https://evil.example/', '/'],
  ['//evil.example/x', '/'],
  ['/\\evil.example/x', '/'],
  ['/\t/evil.example/x', '/'],
  ['javascript:alert(1)', '/'],
  ['me', '/'],
  ['', '/'],
  [undefined, '/'],
  [['/me', '/x'], '/'],
])('nextPath(%j) is %j', (given, expected) => {
  expect(nextPath(given)).toBe(expected);
});

test('the sign-in link comes back to the page it was on', () => {
  expect(signInHref('/me')).toBe('/sign-in?next=%2Fme');
  expect(signInHref('/')).toBe('/sign-in');
});
