/**
 * Interception markers (SPEC I2, I3): which soft navigations an intercepting folder answers,
 * counted in route segments with groups and slots in between.
 */
import { describe, expect, test } from 'vitest';
import { matchInterception } from '../../shared/intercept';
import { decodePathname, matchRoute } from '../../shared/match-route';
import { buildRouteTree, dirOf } from '../../shared/route-tree';

/** Where a soft navigation from `from` to `to` lands: the slot's branch and params, or 'plain'. */
function navigate(files: string[], from: string | null, to: string) {
  const tree = buildRouteTree(files);
  const fromMatch = from === null ? undefined : matchRoute(tree, decodePathname(from)!);
  const found = matchInterception(tree, decodePathname(to)!, fromMatch?.branch);
  if (!found) return 'plain';
  return {
    owner: dirOf(found.interception.owner),
    slot: found.interception.slot,
    page: found.branch.at(-1)!.files.page,
    params: found.params,
  };
}

const FEED = [
  'layout.tsx',
  '(feed)/layout.tsx',
  '(feed)/page.tsx',
  '(feed)/u/[handle]/page.tsx',
  '(feed)/@modal/default.tsx',
  '(feed)/@modal/(.)photos/[id]/page.tsx',
  'photos/[id]/page.tsx',
  'photos/page.tsx',
  'tags/page.tsx',
];

describe('matchInterception', () => {
  test('(.) under a group: the owner’s level, which a group does not add to', () => {
    expect(navigate(FEED, '/', '/photos/3')).toEqual({
      owner: '(feed)',
      slot: 'modal',
      page: '(feed)/@modal/(.)photos/[id]/page.tsx',
      params: { id: '3' },
    });
    // Any page inside the owner's layout is in scope.
    expect(navigate(FEED, '/u/ada', '/photos/3')).toMatchObject({ params: { id: '3' } });
  });

  test('only from inside the owner’s scope, and never for a document request', () => {
    expect(navigate(FEED, '/tags', '/photos/3')).toBe('plain');
    expect(navigate(FEED, '/photos/1', '/photos/3')).toBe('plain');
    expect(navigate(FEED, null, '/photos/3')).toBe('plain');
    expect(navigate(FEED, '/nowhere', '/photos/3')).toBe('plain');
  });

  test('only URLs the intercepting route matches', () => {
    expect(navigate(FEED, '/', '/photos')).toBe('plain');
    expect(navigate(FEED, '/', '/photos/3/comments')).toBe('plain');
    expect(navigate(FEED, '/', '/tags')).toBe('plain');
  });

  test.each([
    ['(..) one level up', ['feed/page.tsx', 'feed/@m/(..)photos/[id]/page.tsx', 'photos/[id]/page.tsx']],
    [
      '(..) with a group between owner and slot',
      ['feed/(g)/page.tsx', 'feed/(g)/@m/(..)photos/[id]/page.tsx', 'photos/[id]/page.tsx'],
    ],
    [
      '(..)(..) two levels up',
      ['a/b/page.tsx', 'a/b/@m/(..)(..)photos/[id]/page.tsx', 'photos/[id]/page.tsx'],
    ],
    [
      '(..)(..) two levels up, groups not counted',
      ['a/(x)/b/(y)/page.tsx', 'a/(x)/b/(y)/@m/(..)(..)photos/[id]/page.tsx', 'photos/[id]/page.tsx'],
    ],
    ['(...) from the root', ['a/b/c/page.tsx', 'a/b/c/@m/(...)photos/[id]/page.tsx', 'photos/[id]/page.tsx']],
  ])('%s', (_name, files) => {
    const from =
      '/' +
      files[0]!
        .split('/')
        .filter((p) => !p.startsWith('(') && p !== 'page.tsx')
        .join('/');
    expect(navigate(files, from, '/photos/3')).toMatchObject({ slot: 'm', params: { id: '3' } });
    expect(navigate(files, from, '/elsewhere/photos/3')).toBe('plain');
  });

  test('(.) under a dynamic owner binds the owner’s param from the target URL', () => {
    const files = ['u/[handle]/page.tsx', 'u/[handle]/@m/(.)p/[id]/page.tsx', 'u/[handle]/p/[id]/page.tsx'];
    expect(navigate(files, '/u/ada', '/u/ada/p/3')).toMatchObject({ params: { handle: 'ada', id: '3' } });
    expect(navigate(files, '/u/ada', '/u/bob/p/3')).toMatchObject({ params: { handle: 'bob', id: '3' } });
    expect(navigate(files, '/u/ada', '/p/3')).toBe('plain');
  });

  test('(..) counts route segments only: one up from u/[handle] is u', () => {
    const files = ['u/[handle]/page.tsx', 'u/[handle]/@m/(..)settings/page.tsx', 'u/settings/page.tsx'];
    expect(navigate(files, '/u/ada', '/u/settings')).toMatchObject({ params: {} });
  });

  test('a catch-all inside the intercepting route', () => {
    const files = ['page.tsx', '@m/(.)docs/[...slug]/page.tsx', 'docs/[...slug]/page.tsx'];
    expect(navigate(files, '/', '/docs/a/b')).toMatchObject({ params: { slug: ['a', 'b'] } });
  });
});
