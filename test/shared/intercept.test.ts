/**
 * Interception markers: which soft navigations an intercepting folder answers, counted in
 * route segments with groups and slots in between, and which interceptor wins when several do.
 */
import { describe, expect, test } from 'vitest';
import { matchInterception } from '../../shared/intercept';
import { decodePathname, matchRoute } from '../../shared/match-route';
import { buildRouteTree, dirOf } from '../../shared/route-tree';

/** Where a soft navigation from `from` to `to` lands: the slot's branch and params, or 'plain'. */
function navigate(files: string[], from: string | null, to: string) {
  const tree = buildRouteTree(files);
  const fromMatch = from === null ? undefined : matchRoute(tree, decodePathname(from)!);
  const found = matchInterception(tree, decodePathname(to)!, fromMatch);
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

  describe('interceptors compete as routes do: static, then [param], then catch-alls', () => {
    const BLOG = [
      'blog/page.tsx',
      'blog/layout.tsx',
      'blog/@m/default.tsx',
      'blog/@m/(.)[slug]/page.tsx',
      'blog/@m/(.)test/page.tsx',
      'blog/@m/(.)[slug]/[...rest]/page.tsx',
      'blog/@m/(.)test/[...rest]/page.tsx',
      'blog/test/page.tsx',
      'blog/[slug]/page.tsx',
      'blog/[slug]/[...rest]/page.tsx',
      'blog/test/[...rest]/page.tsx',
    ];
    const IDS = [
      'ids/layout.tsx',
      'ids/page.tsx',
      'ids/@modal/default.tsx',
      'ids/@modal/(.)[username]/[id]/page.tsx',
      'ids/@modal/(.)no-parallel-routes/deeper/page.tsx',
      'ids/@modal/(.)explicit-layout/layout.tsx',
      'ids/@modal/(.)explicit-layout/deeper/page.tsx',
      'ids/[username]/[id]/page.tsx',
      'ids/no-parallel-routes/deeper/page.tsx',
      'ids/explicit-layout/deeper/page.tsx',
    ];
    test.each([
      // [from, to, the intercepting page, files]
      ['/blog', '/blog/test', 'blog/@m/(.)test/page.tsx', BLOG],
      ['/blog', '/blog/other', 'blog/@m/(.)[slug]/page.tsx', BLOG],
      ['/blog', '/blog/test/a', 'blog/@m/(.)test/[...rest]/page.tsx', BLOG],
      ['/blog', '/blog/other/a', 'blog/@m/(.)[slug]/[...rest]/page.tsx', BLOG],
      ['/ids', '/ids/no-parallel-routes/deeper', 'ids/@modal/(.)no-parallel-routes/deeper/page.tsx', IDS],
      ['/ids', '/ids/explicit-layout/deeper', 'ids/@modal/(.)explicit-layout/deeper/page.tsx', IDS],
      ['/ids', '/ids/ada/7', 'ids/@modal/(.)[username]/[id]/page.tsx', IDS],
    ])('from %s to %s: %s', (from, to, page, files) => {
      expect(navigate(files, from, to)).toMatchObject({ page });
    });

    test('the winner keeps its own layout on the branch', () => {
      const tree = buildRouteTree(IDS);
      const from = matchRoute(tree, ['ids']);
      const found = matchInterception(tree, ['ids', 'explicit-layout', 'deeper'], from);
      expect(found!.branch.map((n) => n.files.layout ?? n.name)).toEqual([
        '@modal',
        'ids/@modal/(.)explicit-layout/layout.tsx',
        'deeper',
      ]);
    });

    test('across slots and owners, the higher route wins; equals go by tree order', () => {
      const files = [
        'a/layout.tsx',
        'a/b/page.tsx',
        'a/@x/default.tsx',
        'a/@x/(.)[p]/c/page.tsx',
        'a/b/@y/default.tsx',
        'a/b/@y/(..)b/c/page.tsx',
        'a/b/@z/default.tsx',
        'a/b/@z/(..)b/c/page.tsx',
        'a/b/c/page.tsx',
        'a/[p]/c/page.tsx',
      ];
      expect(navigate(files, '/a/b', '/a/b/c')).toMatchObject({ slot: 'y', page: 'a/b/@y/(..)b/c/page.tsx' });
      expect(navigate(files, '/a/b', '/a/q/c')).toMatchObject({ slot: 'x', params: { p: 'q' } });
    });
  });

  test('a param name may come back when the marker starts the URL above it', () => {
    const files = [
      '[locale]/example/page.tsx',
      '[locale]/example/@m/default.tsx',
      '[locale]/example/@m/(...)[locale]/intercepted/page.tsx',
      '[locale]/intercepted/page.tsx',
    ];
    expect(navigate(files, '/en/example', '/fr/intercepted')).toEqual({
      owner: '[locale]/example',
      slot: 'm',
      page: '[locale]/example/@m/(...)[locale]/intercepted/page.tsx',
      params: { locale: 'fr' },
    });
  });

  test('a target with the pathname of the page it starts from is never intercepted', () => {
    const files = [
      'isp/layout.tsx',
      'isp/@modal/default.tsx',
      'isp/@modal/(.)search/page.tsx',
      'isp/search/page.tsx',
      'isp/page.tsx',
    ];
    // Only the search params change (the caller matches pathnames): the page stays.
    expect(navigate(files, '/isp/search', '/isp/search')).toBe('plain');
    expect(navigate(files, '/isp/search/', '/isp/search')).toBe('plain');
    // From elsewhere in the owner's scope it intercepts, as from the page under an open modal.
    expect(navigate(files, '/isp', '/isp/search')).toMatchObject({ slot: 'modal' });
  });
});
