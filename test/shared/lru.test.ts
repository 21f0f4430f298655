import { expect, test } from 'vitest';
import { setNewest } from '../../shared/lru';

test('setNewest moves a key to the newest end, and past the limit the oldest go', () => {
  const map = new Map([
    ['a', 1],
    ['b', 2],
    ['c', 3],
  ]);
  setNewest(map, 'a', 10, 3);
  expect([...map]).toEqual([
    ['b', 2],
    ['c', 3],
    ['a', 10],
  ]);
  setNewest(map, 'd', 4, 3);
  expect([...map.keys()]).toEqual(['c', 'a', 'd']);
  setNewest(map, 'e', 5);
  expect([...map.keys()]).toEqual(['c', 'a', 'd', 'e']);
});
