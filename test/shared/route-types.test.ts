import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { buildRouteTree } from '../../shared/route-tree';
import { formatRouteTypes, routeTypesOf } from '../../shared/route-types';

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

describe('formatRouteTypes', () => {
  test('augments Register of switchyard-react with each route', () => {
    const text = formatRouteTypes(
      routeTypesOf(buildRouteTree(['page.tsx', 'photos/[id]/page.tsx', 'a`b/page.tsx'])),
    );
    expect(text).toContain("declare module 'switchyard-react' {");
    expect(text).toContain('  interface Register {');
    expect(text).toContain('      "/": { params: {}; path: `/` };');
    expect(text).toContain('      "/photos/[id]": { params: { "id": string }; path: `/photos/${string}` };');
    expect(text).toContain('      "/a`b": { params: {}; path: `/a\\`b` };');
  });
});
