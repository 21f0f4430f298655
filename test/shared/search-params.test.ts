/**
 * `toSearchParams`: repeated keys become arrays in order, and a key repeated n times costs n
 * steps: the array is appended to, never copied (a copy per repeat made `?a=&a=…` quadratic).
 * A copy is seen without a clock, as an iteration of the array being built.
 */
import { expect, test } from 'vitest';
import { toSearchParams } from '../../shared/page-state';

test('single values stay strings; repeats become arrays in order', () => {
  expect({ ...toSearchParams(new URLSearchParams('a=1&b=2&a=3&a=4')) }).toEqual({
    a: ['1', '3', '4'],
    b: '2',
  });
});

test('a key repeated 5,400 times (what fits in a URL) is appended to, never copied', () => {
  const repeats = 5_400;
  const search = new URLSearchParams();
  for (let i = 0; i < repeats; i++) search.append('a', String(i));
  const iterate = Array.prototype[Symbol.iterator];
  let copies = 0;
  // The values array is the one whose first item is '0'; the [key, value] pairs start with 'a'.
  Array.prototype[Symbol.iterator] = function (this: unknown[]) {
    if (this[0] === '0') copies++;
    return iterate.call(this);
  };
  let values: string | string[] | undefined;
  try {
    values = toSearchParams(search).a;
  } finally {
    Array.prototype[Symbol.iterator] = iterate;
  }
  expect(copies).toBe(0);
  expect(Array.isArray(values) && values.length).toBe(repeats);
  expect(Array.isArray(values) && values.at(-1)).toBe(String(repeats - 1));
});
