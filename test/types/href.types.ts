/**
 * Type tests, checked by `tsc -p test`: each `@ts-expect-error` must stay an error. The routes
 * are what the generator writes for a small app; the app-wide `Register` stays empty here so the
 * rest of the tests keep plain-string URLs.
 */
/* eslint-disable @typescript-eslint/no-empty-object-type -- routes without params, as the generator writes them */
import type { HrefArgs, UrlOf } from '../../shared/href';

type Routes = {
  '/': { params: {}; path: `/` };
  '/photos/[id]': { params: { id: string }; path: `/photos/${string}` };
  '/docs/[...path]': { params: { path: string[] }; path: `/docs/${string}` };
  '/shop/[[...filters]]': { params: { filters: string[] }; path: `/shop` | `/shop/${string}` };
};
type Url = UrlOf<Routes>;

const ok: Url[] = [
  '/',
  '/photos/1',
  '/photos/1?x=1#top',
  '/docs/a/b',
  '/shop',
  '/shop/red',
  '?page=2',
  '#top',
];
const external: Url[] = ['https://example.com/', 'http://x', 'mailto:a@b.c'];
// @ts-expect-error a typo in a static segment
const typo: Url = '/phtos/1';
// @ts-expect-error a route that does not exist
const missing: Url = '/settings';

declare function typedHref<P extends keyof Routes>(pattern: P, ...args: HrefArgs<Routes, P>): string;
typedHref('/photos/[id]', { id: 3 });
typedHref('/docs/[...path]', { path: ['a', 'b'] });
typedHref('/');
// @ts-expect-error a missing param
typedHref('/photos/[id]', {});
// @ts-expect-error no params at all for a pattern that has one
typedHref('/photos/[id]');
// @ts-expect-error an extra param
typedHref('/photos/[id]', { id: 1, size: 2 });
// @ts-expect-error a catch-all takes an array
typedHref('/docs/[...path]', { path: 'a' });
// @ts-expect-error a typo in the pattern
typedHref('/photo/[id]', { id: 1 });

export { ok, external, typo, missing };
