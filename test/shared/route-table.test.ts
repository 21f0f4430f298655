/**
 * The route table the browser matches with finds, for every URL, the branch the tree's matcher
 * finds: the same component files to load and the same answer on loading states. Checked on the
 * demo, the test apps and a tree where every kind of segment competes, over the URLs each table
 * entry spells (with its params filled in several ways) and a few thousand seeded random ones.
 */
import { describe, expect, test } from 'vitest';
import { scanAppDir } from '../../server/vite/scan-app-dir';
import { EVERY_SEGMENT_KIND } from '../helpers/route-files';
import { hasSlots, intercepts, routeTable } from '../../shared/build-route-table';
import { decodePathname, matchRoute } from '../../shared/match-route';
import { assembleRouteTree, classifyFile, COMPONENT_FILES, type RouteNode } from '../../shared/route-tree';
import {
  CATCH_ALL,
  DYNAMIC,
  matchTable,
  OPTIONAL_CATCH_ALL,
  type RouteTableEntry,
} from '../../shared/route-table';

// The matcher's own test app (every segment kind, levels where several compete, groups, route
// handlers), with loading states, and slots whose pages match URLs no page does (the layout's
// children then show nothing).
const COMPETING = [
  ...EVERY_SEGMENT_KIND,
  'loading.tsx',
  'photos/[id]/loading.tsx',
  'dash/layout.tsx',
  'dash/page.tsx',
  'dash/default.tsx',
  'dash/@side/page.tsx',
  'dash/@side/stats/page.tsx',
  'dash/@side/[panel]/detail/page.tsx',
  'dash/@side/[panel]/[x]/page.tsx',
  'dash/team/layout.tsx',
  'dash/team/@members/[member]/page.tsx',
  'dash/team/loading.tsx',
  '@top/banner/page.tsx',
  '(feed)/@modal/(.)photos/[id]/page.tsx',
  // A page right inside a group, a catch-all with folders below it, a slot below a catch-all.
  'catalog/(list)/page.tsx',
  'wiki/[...path]/layout.tsx',
  'wiki/[...path]/page.tsx',
  'wiki/[...path]/edit/page.tsx',
  'wiki/[...path]/[[...rest]]/page.tsx',
  'wiki/[...path]/@aside/page.tsx',
];

const APPS: Record<string, readonly string[]> = {
  competing: COMPETING,
  ...Object.fromEntries(
    [
      'src/app',
      'scripts/bench/app',
      ...['basic', 'routing', 'slots', 'head', 'typed-routes/app'].map((d) => `test/fixtures/${d}`),
    ].map((dir) => [dir, scanAppDir(dir)]),
  ),
};

const componentFilesOf = (files: readonly string[]) =>
  files.filter((file) =>
    (COMPONENT_FILES as readonly string[]).includes(classifyFile(file.split('/').pop()!)!),
  );

/** What the browser took from the tree's matcher before the table: the branch's files, and its loading state. */
function fromTree(tree: RouteNode, pathname: string) {
  const segments = decodePathname(pathname);
  const match = segments && matchRoute(tree, segments);
  if (!match) return undefined;
  const last = match.branch.length - 1;
  const files = match.branch.flatMap((node, i) =>
    COMPONENT_FILES.filter((role) => role !== 'page' || i === last).flatMap((role) => node.files[role] ?? []),
  );
  return { files, loading: match.branch.some((node) => node.files.loading) };
}

function fromTable(table: readonly RouteTableEntry[], pathname: string) {
  const entry = matchTable(table, pathname);
  return entry && { files: entry[1], loading: entry[2] === 1 };
}

/** The URLs an entry spells: each param filled with a name, a static sibling's name and more. */
function urlsOf([segments]: RouteTableEntry, names: readonly string[]): string[] {
  let urls = [''];
  for (const part of segments) {
    const fills =
      part === DYNAMIC
        ? ['x', ...names.slice(0, 3)]
        : part === CATCH_ALL
          ? ['x', 'x/y']
          : part === OPTIONAL_CATCH_ALL
            ? ['', 'x', 'x/y']
            : [encodeURIComponent(part)];
    urls = urls.flatMap((url) => fills.map((fill) => (fill ? `${url}/${fill}` : url)));
  }
  return urls.flatMap((url) => [url || '/', `${url}/`, `${url}/more`]);
}

/** Seeded random pathnames of up to four segments, from the tree's own names and a few strangers. */
function randomUrls(names: readonly string[], count: number): string[] {
  const alphabet = [...names.map(encodeURIComponent), 'x', 'new', 'caf%C3%A9', 'a%2Fb', '%E0%A4%A', '', '%'];
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * 5);
    return '/' + Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('/');
  });
}

describe.each(Object.entries(APPS))('the route table of %s', (_, files) => {
  const componentFiles = componentFilesOf(files);
  const tree = assembleRouteTree(componentFiles);
  const table = routeTable(tree);
  const names = [
    ...new Set(
      componentFiles.flatMap((file) => file.split('/').slice(0, -1)).filter((n) => !/^[[(@]/.test(n)),
    ),
  ];

  test('finds the branch the tree matcher finds for every URL an entry spells', () => {
    const urls = table.flatMap((entry) => urlsOf(entry, names));
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect([url, fromTable(table, url)]).toEqual([url, fromTree(tree, url)]);
  });

  test('and for random URLs, malformed escapes among them', () => {
    for (const url of randomUrls(names, 3000))
      expect([url, fromTable(table, url)]).toEqual([url, fromTree(tree, url)]);
  });
});

describe('the route table', () => {
  const table = routeTable(assembleRouteTree(componentFilesOf(COMPETING)));

  test('lists a folder page before its children, static before [param] before catch-alls', () => {
    const order = table.map(([segments]) =>
      segments.map((s) => (typeof s === 'string' ? s : `<${s}>`)).join('/'),
    );
    const at = (spelled: string) => {
      expect(order).toContain(spelled);
      return order.indexOf(spelled);
    };
    expect(at('photos')).toBeLessThan(at('photos/new'));
    expect(at('photos/new')).toBeLessThan(at(`photos/<${DYNAMIC}>`));
    expect(at('files/report')).toBeLessThan(at(`files/<${DYNAMIC}>`));
    expect(at(`files/<${DYNAMIC}>`)).toBeLessThan(at(`files/<${CATCH_ALL}>`));
    expect(at('')).toBeLessThan(at('photos'));
    expect(at(`photos/<${DYNAMIC}>`)).toBeLessThan(at(`photos/<${DYNAMIC}>/edit`));
  });

  test('a layout whose slot alone matches is tried after every page, deepest first', () => {
    expect(fromTable(table, '/dash/stats')).toEqual({
      files: [
        'layout.tsx',
        'loading.tsx',
        'not-found.tsx',
        'dash/layout.tsx',
        'dash/page.tsx',
        'dash/default.tsx',
      ],
      loading: true,
    });
    expect(fromTable(table, '/dash/team/ann')?.files).toEqual([
      'layout.tsx',
      'loading.tsx',
      'not-found.tsx',
      'dash/layout.tsx',
      'dash/default.tsx',
      'dash/team/layout.tsx',
      'dash/team/loading.tsx',
    ]);
    expect(fromTable(table, '/banner')?.files).toEqual([
      'layout.tsx',
      'page.tsx',
      'loading.tsx',
      'not-found.tsx',
    ]);
  });

  test('a URL a deep static branch cannot finish falls back to the [param] beside it', () => {
    const tree = assembleRouteTree(COMPETING);
    for (const url of [
      '/u/me/posts/x',
      '/u/me/posts/latest',
      '/files/report/x',
      '/catalog',
      '/wiki/a/b/edit',
    ])
      expect([url, fromTable(table, url)]).toEqual([url, fromTree(tree, url)]);
    expect(fromTable(table, '/u/me/posts/x')?.files).toContain('u/[handle]/posts/[post]/page.tsx');
    expect(fromTable(table, '/catalog')?.files).toContain('catalog/(list)/page.tsx');
  });

  test('a malformed escape matches nothing, as it does on the server', () => {
    expect(fromTable(table, '/photos/%E0%A4%A')).toBeUndefined();
    expect(fromTree(assembleRouteTree(COMPETING), '/photos/%E0%A4%A')).toBeUndefined();
  });

  test('an interception is never a table entry: the browser matches those on demand', () => {
    expect(table.some(([, files]) => files.some((file) => file.includes('(.)')))).toBe(false);
  });
});

test('an app has slots when a route file sits below a @slot folder', () => {
  expect(hasSlots(COMPETING)).toBe(true);
  expect(hasSlots(['layout.tsx', 'page.tsx', 'a/[b]/page.tsx', 'a@b/page.tsx'])).toBe(false);
});

test('an app intercepts when a route file sits below a (.), (..) or (...) folder', () => {
  expect(intercepts(COMPETING)).toBe(true);
  expect(intercepts(['@modal/(..)photos/[id]/page.tsx'])).toBe(true);
  expect(intercepts(['a/@modal/(...)photos/page.tsx'])).toBe(true);
  expect(intercepts(['(feed)/page.tsx', 'a(.)b/page.tsx'])).toBe(false);
  // The route tree's own reading of a folder name: a bare marker intercepts nothing.
  expect(intercepts(['(.)/page.tsx'])).toBe(false);
  expect(intercepts(COMPETING.filter((file) => !file.includes('(.)')))).toBe(false);
});
