import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { buildRouteTree } from '../../shared/route-tree';
import {
  appTypesOf,
  formatRouteTypes,
  layoutTypesOf,
  pageTypesOf,
  routeTypesOf,
  type PropsType,
} from '../../shared/route-types';

function fixtureFiles(name: string): string[] {
  const dir = fileURLToPath(new URL(`../fixtures/${name}/`, import.meta.url));
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => f.split('\\').join('/'));
}

function linesOf(files: string[]): string[] {
  return routeTypesOf(buildRouteTree(files)).map(
    (r) => `${r.pattern} ${JSON.stringify(r.params)} ${r.paths.join(' | ')}`,
  );
}

describe('routeTypesOf', () => {
  test('static, dynamic, catch-all and optional catch-all patterns, with their params and paths', () => {
    expect(
      linesOf([
        'page.tsx',
        'photos/[id]/page.tsx',
        'docs/[...path]/page.tsx',
        'shop/[[...filters]]/page.tsx',
        'users/[user]/posts/[post]/page.tsx',
      ]),
    ).toEqual([
      '/ {} /',
      '/docs/[...path] {"path":"string[]"} /docs/${string}',
      '/photos/[id] {"id":"string"} /photos/${string}',
      '/shop/[[...filters]] {"filters":"string[]"} /shop | /shop/${string}',
      '/users/[user]/posts/[post] {"user":"string","post":"string"} /users/${string}/posts/${string}',
    ]);
  });

  test('an optional catch-all at the root answers `/`', () => {
    expect(linesOf(['[[...all]]/page.tsx'])).toEqual(['/[[...all]] {"all":"string[]"} / | /${string}']);
  });

  test('groups leave no trace, route handlers count, folders without a page or handler add nothing', () => {
    expect(linesOf(['(shop)/cart/page.tsx', 'api/photos/[id]/route.ts', 'empty/layout.tsx'])).toEqual([
      '/api/photos/[id] {"id":"string"} /api/photos/${string}',
      '/cart {} /cart',
    ]);
  });

  test('slots and interceptions (routing fixture)', () => {
    expect(linesOf(fixtureFiles('routing')).map((l) => l.split(' ')[0])).toEqual([
      '/',
      '/bare',
      '/bare/settings',
      '/blog',
      '/blog/[slug]',
      '/blog/test',
      '/isp',
      '/isp/search',
      '/nested',
      '/nested/subroute',
      '/ptb',
      '/ptb/demographics',
      '/ptb/view-duration',
      '/tabs',
      '/tabs/settings',
    ]);
  });

  test('an intercepted route is listed once, under its real URL (slots fixture)', () => {
    expect(linesOf(fixtureFiles('slots').filter((f) => !f.startsWith('broken/')))).toEqual([
      '/ {} /',
      '/info {} /info',
      '/photos/[id] {"id":"string"} /photos/${string}',
      '/tags {} /tags',
    ]);
  });

  test('an interception whose URL no real route answers adds no URL', () => {
    expect(
      linesOf(['feed/layout.tsx', 'feed/page.tsx', 'feed/@m/default.tsx', 'feed/@m/(.)only/page.tsx']),
    ).toEqual(['/feed {} /feed']);
  });

  test('every page of the basic fixture is listed', () => {
    const files = fixtureFiles('basic');
    const lines = linesOf(files);
    expect(lines.length).toBe(new Set(lines).size);
    expect(lines).toContain('/lab/rich/[n] {"n":"string"} /lab/rich/${string}');
  });
});

/** One line per pattern: `pattern params servers [slots]`; `-` for a file with no server module. */
function propsLines(types: readonly PropsType[]): string[] {
  return types.map((t) =>
    [
      t.pattern,
      JSON.stringify(t.params),
      t.servers.map((f) => f ?? '-').join(' | '),
      ...(t.slots.length ? [`[${t.slots}]`] : []),
    ].join(' '),
  );
}

describe('pageTypesOf', () => {
  test('each page pattern with its params and the page.server beside it', () => {
    const tree = buildRouteTree([
      'page.tsx',
      'photos/[id]/page.tsx',
      'photos/[id]/page.server.ts',
      'docs/[...path]/page.tsx',
      'docs/[...path]/page.server.js',
      'shop/[[...filters]]/page.tsx',
      'api/[id]/route.ts',
      'empty/layout.tsx',
    ]);
    expect(propsLines(pageTypesOf(tree))).toEqual([
      '/ {} -',
      '/docs/[...path] {"path":"string[]"} docs/[...path]/page.server.js',
      '/photos/[id] {"id":"string"} photos/[id]/page.server.ts',
      '/shop/[[...filters]] {"filters":"string[]"} -',
    ]);
  });

  test('a page, the slot pages and the intercepting pages at one URL share its pattern (slots fixture)', () => {
    const tree = buildRouteTree(fixtureFiles('slots').filter((f) => !f.startsWith('broken/')));
    expect(propsLines(pageTypesOf(tree))).toEqual([
      '/ {} -',
      '/info {} -',
      '/photos/[id] {"id":"string"} (feed)/@modal/(.)photos/[id]/page.server.ts | photos/[id]/page.server.ts',
      '/tags {} -',
    ]);
  });

  test('a page without a page.server beside another with one: both kinds are listed', () => {
    const tree = buildRouteTree([
      'feed/layout.tsx',
      'feed/page.tsx',
      'feed/@m/default.tsx',
      'feed/@m/(.)only/page.tsx',
      'feed/@m/(.)only/page.server.ts',
      'feed/only/page.tsx',
    ]);
    expect(pageTypesOf(tree).map((t) => t.servers)).toEqual([
      [null],
      [null, 'feed/@m/(.)only/page.server.ts'],
    ]);
  });
});

describe('layoutTypesOf', () => {
  test('layouts by the URL pattern of their folder, with their slots (routing fixture)', () => {
    expect(propsLines(layoutTypesOf(buildRouteTree(fixtureFiles('routing'))))).toEqual([
      '/ {} -',
      '/bare {} - [panel]',
      '/blog {} - [m]',
      '/isp {} - [modal]',
      '/nested {} - [groupslot,slot]',
      '/nested/subroute {} -',
      '/ptb {} - [audience,views]',
      '/tabs {} - [panel]',
    ]);
  });

  test("layouts in groups share their parent's pattern: the union of their servers and slots", () => {
    const tree = buildRouteTree([
      'layout.tsx',
      'layout.server.ts',
      'page.tsx',
      '(shop)/layout.tsx',
      '(shop)/@cart/default.tsx',
      '(shop)/cart/page.tsx',
      'users/[user]/layout.server.ts',
      'users/[user]/page.tsx',
    ]);
    expect(propsLines(layoutTypesOf(tree))).toEqual([
      '/ {} - | layout.server.ts [cart]',
      '/users/[user] {"user":"string"} users/[user]/layout.server.ts',
    ]);
  });
});

describe('formatRouteTypes', () => {
  test('augments Register of switchyard-react with each route', () => {
    const text = formatRouteTypes(
      appTypesOf(buildRouteTree(['page.tsx', 'photos/[id]/page.tsx', 'a`b/page.tsx'])),
      '../../app',
    );
    expect(text).toContain("declare module 'switchyard-react' {");
    expect(text).toContain('  interface Register {');
    expect(text).toContain('      "/": { params: {}; path: `/` };');
    expect(text).toContain('      "/photos/[id]": { params: { "id": string }; path: `/photos/${string}` };');
    expect(text).toContain('      "/a`b": { params: {}; path: `/a\\`b` };');
  });

  test('groups the URL paths by first segment, each group with the paths whose first segment is a param', () => {
    const text = formatRouteTypes(
      appTypesOf(
        buildRouteTree([
          'page.tsx',
          'photos/page.tsx',
          'photos/[id]/page.tsx',
          'docs/[[...slug]]/page.tsx',
          '[user]/about/page.tsx',
          'a`b/page.tsx',
        ]),
      ),
      '../../app',
    );
    const urls = text.slice(text.indexOf('    urls: {'), text.indexOf('    pages: {'));
    expect(urls.split('\n').slice(1, -2)).toEqual([
      '      "": `/` | `/${string}/about`;',
      '      "a`b": `/a\\`b` | `/${string}/about`;',
      '      "docs": `/docs` | `/docs/${string}` | `/${string}/about`;',
      '      "photos": `/photos` | `/photos/${string}` | `/${string}/about`;',
      '      "[dynamic]": `/${string}/about`;',
    ]);
  });

  test('pages and layouts reach their server modules as .js paths from the declaration file', () => {
    const text = formatRouteTypes(
      appTypesOf(
        buildRouteTree([
          'layout.tsx',
          'layout.server.ts',
          'page.tsx',
          'photos/layout.tsx',
          'photos/@modal/default.tsx',
          'photos/[id]/page.tsx',
          'photos/[id]/page.server.ts',
          'photos/@modal/(.)[id]/page.tsx',
        ]),
      ),
      '../../../src/app',
    );
    expect(text).toContain(
      '      "/photos/[id]": { params: { "id": string }; server: undefined | typeof import("../../../src/app/photos/[id]/page.server.js") };',
    );
    expect(text).toContain(
      '      "/": { params: {}; server: typeof import("../../../src/app/layout.server.js"); slots: never };',
    );
    expect(text).toContain('      "/photos": { params: {}; server: undefined; slots: "modal" };');
  });
});
