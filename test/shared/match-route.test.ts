import { describe, expect, test } from 'vitest';
import { buildRouteTree } from '../../shared/route-tree';
import { decodePathname, matchRoute } from '../../shared/match-route';
import { EVERY_SEGMENT_KIND } from '../helpers/route-files';

const tree = buildRouteTree(EVERY_SEGMENT_KIND);

function match(pathname: string) {
  const segments = decodePathname(pathname);
  if (!segments) return 'bad request';
  const m = matchRoute(tree, segments);
  return m ? { route: m.pattern, params: m.params } : 'not found';
}

describe('matchRoute', () => {
  test.each([
    // [url, route, params]
    ['/', '/', {}],
    ['/photos', '/photos', {}],
    ['/photos/', '/photos', {}],
    ['/photos/new', '/photos/new', {}],
    ['/photos/new/', '/photos/new', {}],
    ['/photos/42', '/photos/[id]', { id: '42' }],
    ['/photos/42/', '/photos/[id]', { id: '42' }],
    ['/photos/42/edit', '/photos/[id]/edit', { id: '42' }],
    ['/photos/new/edit', '/photos/[id]/edit', { id: 'new' }],
    ['/photos/a%2Fb', '/photos/[id]', { id: 'a/b' }],
    ['/photos/caf%C3%A9', '/photos/[id]', { id: 'café' }],
    ['/photos/%F0%9F%93%B7', '/photos/[id]', { id: '📷' }],
    ['/photos/hello%20world', '/photos/[id]', { id: 'hello world' }],
    ['/tags/nature', '/tags/[...path]', { path: ['nature'] }],
    ['/tags/nature/trees/oak', '/tags/[...path]', { path: ['nature', 'trees', 'oak'] }],
    ['/tags/a%2Fb/c', '/tags/[...path]', { path: ['a/b', 'c'] }],
    // An escaped slash is part of its segment's value, in either case, never a separator.
    ['/tags/nature%2ftrees', '/tags/[...path]', { path: ['nature/trees'] }],
    ['/tags/nature%2Ftrees/oak', '/tags/[...path]', { path: ['nature/trees', 'oak'] }],
    ['/photos/a%2fb', '/photos/[id]', { id: 'a/b' }],
    ['/api/photos/7', '/api/photos/[id]', { id: '7' }],
    ['/api/photos/7/art', '/api/photos/[id]/art', { id: '7' }],
    ['/api/photos/caf%C3%A9', '/api/photos/[id]', { id: 'café' }],
    ['/api/files/a/b%2Fc', '/api/files/[...path]', { path: ['a', 'b/c'] }],
    ['/api/search', '/api/search/[[...q]]', { q: [] }],
    ['/api/search/cats/small', '/api/search/[[...q]]', { q: ['cats', 'small'] }],
    ['/photos/7/json', '/photos/[id]/json', { id: '7' }],
    ['/u/ada/feed.xml', '/u/[handle]/feed.xml', { handle: 'ada' }],
    ['/files/x%2Fy', '/files/[name]', { name: 'x/y' }],
    ['/photos/new%2Fedit', '/photos/[id]', { id: 'new/edit' }],
    ['/u/ada%2Fposts%2F7', '/u/[handle]', { handle: 'ada/posts/7' }],
    ['/docs', '/docs/[[...slug]]', { slug: [] }],
    ['/docs/', '/docs/[[...slug]]', { slug: [] }],
    ['/docs/routing', '/docs/[[...slug]]', { slug: ['routing'] }],
    ['/docs/a/b/c', '/docs/[[...slug]]', { slug: ['a', 'b', 'c'] }],
    ['/files/report', '/files/report', {}],
    ['/files/x', '/files/[name]', { name: 'x' }],
    ['/files/x/y', '/files/[...rest]', { rest: ['x', 'y'] }],
    ['/files/report/y', '/files/[...rest]', { rest: ['report', 'y'] }],
    ['/about', '/about', {}],
    ['/terms', '/terms', {}],
    ['/shop', '/shop/[[...filters]]', { filters: [] }],
    ['/shop/sale', '/shop/sale', {}],
    ['/shop/red/xl', '/shop/[[...filters]]', { filters: ['red', 'xl'] }],
    ['/u/ada', '/u/[handle]', { handle: 'ada' }],
    ['/u/ada/posts/7', '/u/[handle]/posts/[post]', { handle: 'ada', post: '7' }],
    ['/u/me/posts/latest', '/u/me/posts/latest', {}],
    ['/u/me/posts/first', '/u/[handle]/posts/[post]', { handle: 'me', post: 'first' }],
    ['/café', '/café', {}],
    ['/caf%C3%A9', '/café', {}],
    ['//photos//42', '/photos/[id]', { id: '42' }],
  ])('%s → %s', (url, route, params) => {
    expect(match(url)).toEqual({ route, params });
  });

  test.each([
    ['/tags', 'not found'], // a catch-all needs at least one segment
    ['/nope', 'not found'],
    ['/photos/42/edit/more', 'not found'],
    ['/u', 'not found'],
    ['/api/photos', 'not found'], // a route handler answers only its own folder's URL
    ['/components/button', 'not found'], // not a router file
    ['/(marketing)/about', 'not found'], // groups are not in the URL
    ['/%2F', 'not found'], // a segment named "/", not the home page
    ['/photos%2F42', 'not found'],
    ['/photos/%E0%A4%A', 'bad request'],
    ['/photos/%', 'bad request'],
    ['/photos/%zz', 'bad request'],
  ])('%s → %s', (url, expected) => {
    expect(match(url)).toBe(expected);
  });

  test('the branch runs from the root through groups to the page, so group layouts wrap it', () => {
    const m = matchRoute(tree, ['terms'])!;
    expect(m.branch.map((n) => n.name)).toEqual(['', '(marketing)', '(legal)', 'terms']);
    expect(m.branch[1]!.files.layout).toBe('(marketing)/layout.tsx');
  });

  test('a page held in a group answers its parent URL', () => {
    const grouped = buildRouteTree(['layout.tsx', '(home)/page.tsx', '(home)/layout.tsx']);
    const m = matchRoute(grouped, [])!;
    expect(m.pattern).toBe('/');
    expect(m.branch.map((n) => n.name)).toEqual(['', '(home)']);
  });

  test('a static route wins over a dynamic one wherever it is declared', () => {
    const t = buildRouteTree(['(a)/[id]/page.tsx', '(b)/fixed/page.tsx']);
    expect(matchRoute(t, ['fixed'])!.pattern).toBe('/fixed');
    expect(matchRoute(t, ['other'])!.pattern).toBe('/[id]');
  });

  test('folders of one name in different groups are each tried, in order, until one finds a page', () => {
    const t = buildRouteTree([
      '(a)/shop/cart/page.tsx',
      '(b)/shop/checkout/page.tsx',
      '(b)/shop/[id]/page.tsx',
    ]);
    expect(matchRoute(t, ['shop', 'cart'])!.branch.map((n) => n.name)).toEqual(['', '(a)', 'shop', 'cart']);
    expect(matchRoute(t, ['shop', 'checkout'])!.branch.map((n) => n.name)).toEqual([
      '',
      '(b)',
      'shop',
      'checkout',
    ]);
    // The first `shop` has no `[id]`: the second's dynamic route still answers.
    expect(matchRoute(t, ['shop', '7'])!.pattern).toBe('/shop/[id]');
  });

  test('among a thousand top-level folders each URL finds its own', () => {
    const files = Array.from({ length: 1000 }, (_, i) => (i % 2 ? `s${i}/[id]/page.tsx` : `s${i}/page.tsx`));
    const t = buildRouteTree(files);
    expect(matchRoute(t, ['s998'])!.pattern).toBe('/s998');
    expect(matchRoute(t, ['s999', '3'])!.params).toEqual({ id: '3' });
    expect(matchRoute(t, ['s999'])).toBeUndefined();
  });

  test('a route handler competes with pages by the same priority, and is the last node of its branch', () => {
    const t = buildRouteTree(['blog/[slug]/page.tsx', 'blog/feed/route.ts', 'blog/[slug]/raw/route.ts']);
    expect(matchRoute(t, ['blog', 'feed'])!.branch.at(-1)!.files).toEqual({ route: 'blog/feed/route.ts' });
    expect(matchRoute(t, ['blog', 'post'])!.pattern).toBe('/blog/[slug]');
    expect(matchRoute(t, ['blog', 'feed', 'raw'])!.branch.at(-1)!.files).toEqual({
      route: 'blog/[slug]/raw/route.ts',
    });
  });

  describe('a URL that only a slot matches', () => {
    const slots = buildRouteTree([
      'ptb/layout.tsx',
      'ptb/page.tsx',
      'ptb/default.tsx',
      'ptb/@views/page.tsx',
      'ptb/@views/view-duration/page.tsx',
      'ptb/@views/[...deep]/page.tsx',
      'ptb/@audience/demographics/page.tsx',
      'ptb/main/page.tsx',
      'ptb/x/layout.tsx',
      'ptb/x/@side/y/page.tsx',
      'feed/@modal/(.)photos/[id]/page.tsx',
      'feed/page.tsx',
    ]);
    const slotMatch = (url: string) => {
      const m = matchRoute(slots, decodePathname(url)!);
      return m
        ? { route: m.pattern, slotOnly: m.slotOnly ?? false, leaf: m.branch.at(-1)!.name }
        : 'not found';
    };
    test.each([
      // [url, the layout whose slot matched (or the page), slotOnly]
      ['/ptb', '/ptb', false],
      ['/ptb/main', '/ptb/main', false], // a page anywhere wins over a slot
      ['/ptb/view-duration', '/ptb', true],
      ['/ptb/demographics', '/ptb', true],
      ['/ptb/a/b', '/ptb', true], // a catch-all in a slot
      ['/ptb/x/y', '/ptb/x', true], // the deepest layout whose slot matches
    ])('%s → %s', (url, route, slotOnly) => {
      expect(slotMatch(url)).toMatchObject({ route, slotOnly });
    });

    test('interceptors never make a URL match', () => {
      expect(slotMatch('/feed/photos/3')).toBe('not found');
    });
  });
});
