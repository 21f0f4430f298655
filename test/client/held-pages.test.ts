/**
 * The pages held for back and forward: bounded, oldest out first; marked stale when a server
 * action revalidates their path; replaced when the page under a modal was fetched again.
 */
import { expect, test } from 'vitest';
import { createHeldPages } from '../../client/held-pages';
import { pageState } from '../helpers/router-harness';

const page = (url: string, mainUrl?: string) => {
  const state = pageState(url, 'p');
  return { state: mainUrl ? { ...state, mainUrl } : state, modules: new Map() };
};

test('past the bound the oldest page goes; holding one again makes it the newest', () => {
  const held = createHeldPages(2);
  held.hold('a', page('/a'));
  held.hold('b', page('/b'));
  held.hold('a', page('/a'));
  held.hold('c', page('/c'));
  expect([held.get('a'), held.get('b'), held.get('c')].map((p) => p?.state.url)).toEqual([
    '/a',
    undefined,
    '/c',
  ]);
});

test('a revalidated path marks the pages that show it, or have it under a modal, the current one too', () => {
  const held = createHeldPages(10);
  held.hold('feed', page('/'));
  held.hold('modal', page('/photos/3', '/'));
  held.hold('tags', page('/tags'));
  held.hold('here', page('/'));
  held.markStale([{ path: '/', type: 'page' }]);
  // The page on screen too: a click may cancel the refresh that would have replaced it.
  expect(['feed', 'modal', 'tags', 'here'].map((key) => held.get(key)?.stale ?? false)).toEqual([
    true,
    true,
    false,
    true,
  ]);
});

test('a page fetched again replaces the held copies of its URL, keeping where the user left them', () => {
  const held = createHeldPages(10);
  held.hold('feed', page('/'));
  held.keepScroll('feed', { x: 0, y: 640 });
  held.markStale([{ path: '/', type: 'page' }]);
  const fresh = page('/');
  held.refresh('/', fresh);
  expect(held.get('feed')).toEqual({ ...fresh, scroll: { x: 0, y: 640 } });
});
