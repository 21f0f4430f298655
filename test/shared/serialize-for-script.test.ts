import { expect, test } from 'vitest';
import { serializeForScript } from '../../shared/serialize-for-script';
import { toSearchParams } from '../../shared/page-state';

const hostile = {
  close: '</script><script>alert(1)</script>',
  upper: '</SCRIPT>',
  comment: '<!-- <script>',
  separators: 'a\u2028b\u2029c',
  nul: 'x\u0000y',
  amp: '&lt;&amp;',
  surrogate: '\ud800',
  nested: [{ '</script>': '<!--' }],
};

test('hostile strings never appear raw and round-trip byte-exactly', () => {
  const out = serializeForScript(hostile);
  for (const raw of ['<', '>', '\u2028', '\u2029', '\u0000']) expect(out).not.toContain(raw);
  expect(JSON.parse(out)).toEqual(hostile);
  // It is also a JS expression with the same value, which is how the page reads it.
  expect(new Function(`return ${out}`)()).toEqual(hostile);
});

test('undefined serialises as null', () => {
  expect(serializeForScript(undefined)).toBe('null');
});

test('search params: repeated keys become arrays, __proto__ is a plain key', () => {
  const sp = toSearchParams(new URLSearchParams('a=1&b=2&a=3&__proto__=x'));
  expect({ ...sp }).toEqual({ a: ['1', '3'], b: '2', ['__proto__']: 'x' });
  expect(Object.getPrototypeOf(sp)).toBe(null);
  expect(({} as Record<string, unknown>).x).toBeUndefined();
});
