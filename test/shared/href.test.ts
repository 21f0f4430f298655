import { describe, expect, test } from 'vitest';
import { href } from '../../shared/href';

describe('href', () => {
  test('fills each param, percent-encoded; catch-alls take arrays', () => {
    expect(href('/')).toBe('/');
    expect(href('/photos/[id]', { id: 3 })).toBe('/photos/3');
    expect(href('/users/[user]/posts/[post]', { user: 'a b', post: 'é?#' })).toBe(
      '/users/a%20b/posts/%C3%A9%3F%23',
    );
    expect(href('/docs/[...path]', { path: ['a', 'b c'] })).toBe('/docs/a/b%20c');
    expect(href('/shop/[[...filters]]', { filters: [] })).toBe('/shop');
    expect(href('/shop/[[...filters]]')).toBe('/shop');
    expect(href('/shop/[[...filters]]', { filters: ['red', 2] })).toBe('/shop/red/2');
  });

  test.each([
    ['/photos/[id]', {}, 'href("/photos/[id]"): the param "id" needs one value'],
    [
      '/photos/[id]',
      { id: '' },
      'href("/photos/[id]"): the param "id" is empty; each value is one URL segment',
    ],
    [
      '/photos/[id]',
      { id: 'a/b' },
      'href("/photos/[id]"): the param "id" is "a/b", with a "/"; each value is one URL segment',
    ],
    ['/photos/[id]', { id: ['a'] }, 'href("/photos/[id]"): the param "id" needs one value'],
    ['/photos/[id]', { id: 1, extra: 2 }, 'href("/photos/[id]"): no param "extra" in this pattern'],
    [
      '/docs/[...path]',
      { path: [] },
      'href("/docs/[...path]"): the param "path" needs an array of one or more segments',
    ],
    [
      '/docs/[...path]',
      { path: 'a' },
      'href("/docs/[...path]"): the param "path" needs an array of one or more segments',
    ],
    [
      '/docs/[...path]',
      { path: ['a', ''] },
      'href("/docs/[...path]"): the param "path" is empty; each value is one URL segment',
    ],
    [
      '/(shop)/cart',
      {},
      'href("/(shop)/cart"): "(shop)" is not part of a URL pattern; groups and slots leave no trace in a URL',
    ],
  ])('%s with %j throws', (pattern, params, message) => {
    expect(() => href(pattern, params as never)).toThrow(message);
  });
});
