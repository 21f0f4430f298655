/** A Content-Type's parameters, read by HTTP's grammar: quotes hold `;` and `=`, escapes come off. */
import { expect, test } from 'vitest';
import { HttpError } from '../../server/http/http-error';
import { mediaTypeParameters } from '../../server/http/media-type';

test.each([
  ['multipart/form-data', {}],
  ['multipart/form-data; boundary=abc', { boundary: 'abc' }],
  ['multipart/form-data;boundary=abc', { boundary: 'abc' }],
  ['multipart/form-data ; BOUNDARY=abc ', { boundary: 'abc' }],
  [
    'multipart/form-data; name="x;boundary=evil"; boundary=real',
    { name: 'x;boundary=evil', boundary: 'real' },
  ],
  ['multipart/form-data; boundary="a b"', { boundary: 'a b' }],
  ['multipart/form-data; boundary="a\\"b\\\\c"', { boundary: 'a"b\\c' }],
  ['multipart/form-data; boundary=""', { boundary: '' }],
  // Empty parameters are allowed by the grammar.
  ['text/plain;; charset=utf-8;', { charset: 'utf-8' }],
])('%j has the parameters %j', (type, parameters) => {
  expect(Object.fromEntries(mediaTypeParameters(type))).toEqual(parameters);
});

test.each([
  ['multipart/form-data; boundary', 'boundary'],
  ['multipart/form-data; boundary = abc', 'boundary = abc'],
  ['multipart/form-data; boundary=a b', ' b'],
  ['multipart/form-data; boundary=a"b', '"b'],
  ['multipart/form-data; boundary="abc', '; boundary="abc'],
  ['multipart/form-data; boundary="abc"x', 'x'],
  ['multipart/form-data; a=1 b=2', ' b=2'],
])('%j does not parse, at %j', (type, at) => {
  const error = (() => {
    try {
      mediaTypeParameters(type);
    } catch (e) {
      return e;
    }
  })();
  expect(error).toBeInstanceOf(HttpError);
  expect(error).toMatchObject({ status: 400 });
  expect((error as Error).message).toContain(`do not parse at "`);
  expect((error as Error).message).toContain(at);
});

test('a parameter given twice is a 400, in any case', () => {
  expect(() => mediaTypeParameters('multipart/form-data; boundary=a; Boundary=b')).toThrow(
    'The Content-Type gives the parameter boundary twice.',
  );
});
