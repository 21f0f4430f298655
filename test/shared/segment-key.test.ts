/**
 * A segment's key: its folder and the values of the params bound at or above it, the same on
 * every call however many folders it has seen.
 */
import { describe, expect, test } from 'vitest';
import { segmentKey } from '../../shared/page-state';
import { paramOf, parseSegment } from '../../shared/segment';

describe('segmentKey', () => {
  test.each([
    ['', {}, ''],
    ['(feed)', { id: '3' }, '(feed)'],
    ['photos/[id]', { id: '3' }, 'photos/[id]|["3"]'],
    ['(feed)/photos/[id]', { id: '3' }, '(feed)/photos/[id]|["3"]'],
    ['tags/[...path]', { path: ['a', 'b'] }, 'tags/[...path]|[["a","b"]]'],
    ['docs/[[...slug]]', { slug: [] }, 'docs/[[...slug]]|[[]]'],
    ['u/[handle]/photos/[id]', { handle: 'ada', id: '7' }, 'u/[handle]/photos/[id]|["ada","7"]'],
  ])('%s with %j → %s', (dir, params, key) => {
    expect(segmentKey(dir, params)).toBe(key);
    // Asked again (from what it remembers of the folder): the same key.
    expect(segmentKey(dir, params)).toBe(key);
  });

  test('past the bound on the folders it remembers, every key is still right', () => {
    for (let i = 0; i < 2_500; i++) {
      expect(segmentKey(`s${i}/[id]`, { id: String(i) })).toBe(`s${i}/[id]|["${i}"]`);
    }
    expect(segmentKey('photos/[id]', { id: '4' })).toBe('photos/[id]|["4"]');
  });

  // segmentKey reads param folders on its own (the browser's first load does without
  // segment.ts): it must read every folder name as parseSegment does.
  test.each([
    '[id]',
    '[...path]',
    '[[...slug]]',
    '[user_id]',
    '[post-id]',
    '[ид]',
    '(.)[id]',
    '(..)[id]',
    '(..)(..)[...path]',
    '(...)[[...slug]]',
    '(.)(..)[id]',
    'photos',
    '(feed)',
    '@modal',
    '@[x]',
    '([x])',
    '(.)',
    '(....)[id]',
    '[[id]]',
    '[....slug]',
    '[…slug]',
    '[a]]',
    '[[...a]',
    '[a b]',
    '[]',
    '[...]',
    'x[id]',
  ])('the folder %s binds what parseSegment says', (name) => {
    const param = paramOf(parseSegment(name));
    expect(segmentKey(name, { [param ?? '']: 'v' })).toBe(param === undefined ? name : `${name}|["v"]`);
  });
});
