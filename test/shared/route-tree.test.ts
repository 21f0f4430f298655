import { describe, expect, test } from 'vitest';
import { buildRouteTree, RouteTreeError } from '../../shared/route-tree';
import { formatTree } from '../../shared/format-tree';
import { parseSegment } from '../../shared/segment';

function problemsOf(files: string[]): readonly string[] {
  try {
    buildRouteTree(files);
  } catch (error) {
    if (error instanceof RouteTreeError) return error.problems;
    throw error;
  }
  return [];
}

describe('parseSegment', () => {
  test.each([
    ['photos', { kind: 'static', name: 'photos' }],
    ['[id]', { kind: 'dynamic', param: 'id' }],
    ['[...path]', { kind: 'catchAll', param: 'path' }],
    ['[[...slug]]', { kind: 'optionalCatchAll', param: 'slug' }],
    ['(shop)', { kind: 'group', name: 'shop' }],
    ['@modal', { kind: 'slot', name: 'modal' }],
    ['(.)photos', { kind: 'intercept', marker: '(.)', segment: { kind: 'static', name: 'photos' } }],
    ['(..)photos', { kind: 'intercept', marker: '(..)', segment: { kind: 'static', name: 'photos' } }],
    [
      '(..)(..)photos',
      { kind: 'intercept', marker: '(..)(..)', segment: { kind: 'static', name: 'photos' } },
    ],
    ['(...)[id]', { kind: 'intercept', marker: '(...)', segment: { kind: 'dynamic', param: 'id' } }],
  ])('%s', (name, segment) => {
    expect(parseSegment(name)).toEqual(segment);
  });
});

describe('buildRouteTree', () => {
  test('the tree prints as text, files listed by role, non-router files ignored', () => {
    const tree = buildRouteTree([
      'layout.tsx',
      'page.tsx',
      'not-found.tsx',
      'styles.css',
      'photos/[id]/page.tsx',
      'photos/[id]/page.server.ts',
      'photos/[id]/loading.tsx',
      'photos/[id]/error.tsx',
      'photos/[id]/photo-card.tsx',
      '(marketing)/layout.tsx',
      '(marketing)/about/page.tsx',
      'docs/[[...slug]]/page.tsx',
      'docs/[[...slug]]/layout.server.ts',
    ]);
    expect(formatTree(tree)).toBe(
      [
        '/ [layout, page, not-found]',
        '├─ (marketing) [layout]',
        '│  └─ about [page]',
        '├─ docs',
        '│  └─ [[...slug]] [page, layout.server]',
        '└─ photos',
        '   └─ [id] [page, loading, error, page.server]',
      ].join('\n'),
    );
  });

  test.each([
    [
      'two different slug names at one level',
      ['photos/[id]/page.tsx', 'photos/[slug]/page.tsx'],
      'different slug names at one level: photos/[id]/page.tsx, photos/[slug]/page.tsx',
    ],
    [
      'two different slug names at one level, across groups',
      ['(a)/[id]/page.tsx', '(b)/[slug]/page.tsx'],
      'different slug names at one level: (a)/[id]/page.tsx, (b)/[slug]/page.tsx',
    ],
    [
      'a repeated slug name in one path',
      ['u/[id]/posts/[id]/page.tsx'],
      'the slug name "id" repeats in one path: u/[id]/posts/[id]/page.tsx is below u/[id]/posts/[id]/page.tsx',
    ],
    [
      'a catch-all that is not last',
      ['tags/[...path]/edit/page.tsx'],
      'a catch-all must be the last segment: tags/[...path]/edit/page.tsx is below tags/[...path]/edit/page.tsx',
    ],
    [
      'a required and an optional catch-all at one level',
      ['docs/[...a]/page.tsx', 'docs/[[...a]]/page.tsx'],
      'a required and an optional catch-all at one level: docs/[...a]/page.tsx, docs/[[...a]]/page.tsx',
    ],
    [
      '(..) used at the root',
      ['(..)photos/page.tsx'],
      '(..) reaches above the app root in (..)photos/page.tsx: it needs 1 route segment(s) above it, there are 0',
    ],
    [
      '(..)(..) one level too high, groups not counted',
      ['feed/(group)/(..)(..)photos/page.tsx'],
      '(..)(..) reaches above the app root in feed/(group)/(..)(..)photos/page.tsx: it needs 2 route segment(s) above it, there are 1',
    ],
    [
      'an interception outside a slot',
      ['feed/page.tsx', 'feed/(..)photos/page.tsx'],
      'an interception must be inside a @slot folder, which says where it shows: feed/(..)photos/page.tsx',
    ],
    [
      'a marker before a group',
      ['@m/(.)(g)/page.tsx'],
      '(.) must stand before a route segment, not a group or a slot: @m/(.)(g)/page.tsx',
    ],
    [
      'an interception inside another interception',
      ['a/@m/(.)b/(.)c/page.tsx'],
      'an interception inside another interception: a/@m/(.)b/(.)c/page.tsx',
    ],
    [
      'two pages resolving to one URL through groups',
      ['(a)/about/page.tsx', '(b)/about/page.tsx'],
      '(a)/about/page.tsx and (b)/about/page.tsx both resolve to the URL /about',
    ],
    [
      'a page and an optional catch-all page at one URL',
      ['docs/page.tsx', 'docs/[[...slug]]/page.tsx'],
      'docs/page.tsx and docs/[[...slug]]/page.tsx both resolve to the URL /docs',
    ],
    [
      'two files for one role in a folder',
      ['page.tsx', 'page.jsx'],
      'page.jsx and page.tsx are both the page of one folder',
    ],
  ])('%s', (_name, files, problem) => {
    expect(problemsOf(files)).toContain(problem);
  });

  test('the error message names every problem', () => {
    expect(() => buildRouteTree(['[a]/page.tsx', '[b]/page.tsx', '(..)x/page.tsx'])).toThrow(
      /Invalid app directory:\n {2}- different slug names.*\[a\]\/page\.tsx.*\n {2}- \(\.\.\) reaches above/s,
    );
  });

  test('dynamic and catch-all segments with different names may share a level', () => {
    expect(problemsOf(['files/[name]/page.tsx', 'files/[...rest]/page.tsx'])).toEqual([]);
  });

  test('a slot page may share its URL with the main page', () => {
    expect(problemsOf(['layout.tsx', 'page.tsx', '@modal/page.tsx', '@modal/default.tsx'])).toEqual([]);
  });
});
