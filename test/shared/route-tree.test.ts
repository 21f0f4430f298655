import { describe, expect, test } from 'vitest';
import { assembleRouteTree, buildRouteTree, RouteTreeError } from '../../shared/route-tree';
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
    // Malformed params never become params (validation refuses them by name).
    ['[....slug]', { kind: 'static', name: '[....slug]' }],
    ['[[slug]]', { kind: 'static', name: '[[slug]]' }],
    ['[…slug]', { kind: 'static', name: '[…slug]' }],
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
      'api/route.ts',
      'api/route.tsx',
    ]);
    expect(formatTree(tree)).toBe(
      [
        '/ [layout, page, not-found]',
        '├─ (marketing) [layout]',
        '│  └─ about [page]',
        '├─ api [route]',
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
      'the param name "id" appears twice in the URL /u/[id]/posts/[id]; give each param its own name: u/[id]/posts/[id]/page.tsx',
    ],
    [
      'a catch-all that is not last',
      ['tags/[...path]/edit/page.tsx'],
      'a catch-all must end its URL, but /tags/[...path]/edit goes on past it: tags/[...path]/edit/page.tsx',
    ],
    [
      'a repeated param name inside an interception that keeps the owner’s URL',
      ['[locale]/feed/@m/(.)[locale]/page.tsx'],
      'the param name "locale" appears twice in the URL /[locale]/feed/[locale]; give each param its own name: [locale]/feed/@m/(.)[locale]/page.tsx',
    ],
    [
      'a catch-all that is not last inside an interception',
      ['@m/(...)[...slug]/extra/page.tsx'],
      'a catch-all must end its URL, but /[...slug]/extra goes on past it: @m/(...)[...slug]/extra/page.tsx',
    ],
    [
      'an optional catch-all that is not last, through a group',
      ['docs/[[...slug]]/(g)/edit/page.tsx'],
      'a catch-all must end its URL, but /docs/[[...slug]]/edit goes on past it: docs/[[...slug]]/(g)/edit/page.tsx',
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
    [
      'a page and a route handler in one folder',
      ['api/page.tsx', 'api/route.ts'],
      'api/page.tsx and api/route.ts are in one folder, but a URL is answered by a page or by a route handler, not both; move one of them to another folder',
    ],
    [
      'a page and a route handler at one URL through groups',
      ['(a)/feed/page.tsx', '(b)/feed/route.ts'],
      '(a)/feed/page.tsx and (b)/feed/route.ts both resolve to the URL /feed',
    ],
    [
      'two route handlers at one URL',
      ['(a)/x/route.ts', '(b)/x/route.js'],
      '(a)/x/route.ts and (b)/x/route.js both resolve to the URL /x',
    ],
    [
      'a route handler in a slot',
      ['@modal/api/route.ts'],
      'a route handler cannot be inside a @slot or an interception (@modal), which only render beside a page: @modal/api/route.ts',
    ],
    [
      'a route handler in an interception',
      ['feed/@m/(.)photos/route.ts'],
      'a route handler cannot be inside a @slot or an interception (@m), which only render beside a page: feed/@m/(.)photos/route.ts',
    ],
  ])('%s', (_name, files, problem) => {
    expect(problemsOf(files)).toContain(problem);
  });

  const FORMS = 'write [name] for one segment, [...name] for one or more, [[...name]] for zero or more';
  test.each([
    [
      '[..id]',
      'the folder "[..id]" has erroneous periods; write [...id] (exactly three) for a catch-all, or [id] (none) for one segment',
    ],
    [
      '[.slug]',
      'the folder "[.slug]" has erroneous periods; write [...slug] (exactly three) for a catch-all, or [slug] (none) for one segment',
    ],
    [
      '[....slug]',
      'the folder "[....slug]" has erroneous periods; write [...slug] (exactly three) for a catch-all, or [slug] (none) for one segment',
    ],
    [
      '[[..id]]',
      'the folder "[[..id]]" has erroneous periods; write [...id] (exactly three) for a catch-all, or [id] (none) for one segment',
    ],
    ['[[...id]', `the folder "[[...id]" has extra or unbalanced brackets; ${FORMS}`],
    ['[...id]]', `the folder "[...id]]" has extra or unbalanced brackets; ${FORMS}`],
    ['[[[...id]]]', `the folder "[[[...id]]]" has extra or unbalanced brackets; ${FORMS}`],
    ['[slug]]', `the folder "[slug]]" has extra or unbalanced brackets; ${FORMS}`],
    [
      '[[slug]]',
      'the folder "[[slug]]" is an optional param that is not a catch-all, which is not supported; write [[...slug]] for zero or more segments, or [slug] for exactly one',
    ],
    ['[]', `the folder "[]" names no param; ${FORMS}`],
    ['[...]', `the folder "[...]" names no param; ${FORMS}`],
    ['[[...]]', `the folder "[[...]]" names no param; ${FORMS}`],
    [
      '[…slug]',
      'the folder "[…slug]" holds an ellipsis character (…) where a catch-all has three periods; write [...slug]',
    ],
    ['[a b]', 'the param name "a b" in the folder "[a b]" may hold only letters, digits, _ and -'],
    [
      'post-[id]',
      `the folder "post-[id]" has brackets inside its name, but a param's brackets hold the whole name; ${FORMS}`,
    ],
  ])('the malformed folder name %s is refused, naming the file', (name, message) => {
    expect(problemsOf([`m/${name}/page.tsx`, `m/${name}/layout.tsx`])).toEqual([
      `${message}: m/${name}/layout.tsx`,
    ]);
    // The same rules behind an interception marker.
    expect(problemsOf([`@s/(.)${name}/page.tsx`])).toEqual([`${message}: @s/(.)${name}/page.tsx`]);
  });

  test.each(['[id]', '[...path]', '[[...slug]]', '[user_id]', '[post-id]', '[ид]', 'café', '…', '(.)[id]'])(
    'the folder name %s is accepted',
    (name) => {
      expect(problemsOf([`@s/x/page.tsx`, `@s/${name}/page.tsx`])).toEqual([]);
    },
  );

  test('the error message names every problem', () => {
    expect(() => buildRouteTree(['[a]/page.tsx', '[b]/page.tsx', '(..)x/page.tsx'])).toThrow(
      /Invalid app directory:\n {2}- different slug names.*\[a\]\/page\.tsx.*\n {2}- \(\.\.\) reaches above/s,
    );
  });

  test('each refusal names each file once', () => {
    for (const files of [
      ['u/[id]/posts/[id]/page.tsx'],
      ['tags/[...path]/edit/page.tsx'],
      ['m/[..id]/page.tsx'],
    ]) {
      const [problem] = problemsOf(files);
      expect(problem!.split(files[0]!)).toHaveLength(2);
    }
  });

  test('a param name may come back in an interception whose URL starts above it', () => {
    const files = [
      '[locale]/example/page.tsx',
      '[locale]/example/@m/default.tsx',
      '[locale]/example/@m/(...)[locale]/intercepted/page.tsx',
      '[locale]/intercepted/page.tsx',
    ];
    expect(problemsOf(files)).toEqual([]);
    expect(problemsOf(['[a]/b/@m/(..)[b]/page.tsx', '[a]/b/@m/(..)(..)[a]/c/page.tsx'])).toEqual([]);
  });

  test('dynamic and catch-all segments with different names may share a level', () => {
    expect(problemsOf(['files/[name]/page.tsx', 'files/[...rest]/page.tsx'])).toEqual([]);
  });

  test('a slot page may share its URL with the main page', () => {
    expect(problemsOf(['layout.tsx', 'page.tsx', '@modal/page.tsx', '@modal/default.tsx'])).toEqual([]);
  });
});

describe('assembleRouteTree', () => {
  test('gives the tree buildRouteTree gives for files already checked', () => {
    const files = ['layout.tsx', 'photos/[id]/page.tsx', '(shop)/@modal/(.)photos/[id]/page.tsx'];
    expect(assembleRouteTree(files)).toEqual(buildRouteTree(files));
  });

  test('runs none of the rules: that is the build and the server’s job', () => {
    const files = ['[a]/page.tsx', '[b]/page.tsx'];
    expect(problemsOf(files)).not.toEqual([]);
    expect(formatTree(assembleRouteTree(files))).toBe(['/', '├─ [a] [page]', '└─ [b] [page]'].join('\n'));
  });
});
