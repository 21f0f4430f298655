import { expect, test } from 'vitest';
import { checkRedirectTarget } from '../../shared/redirect-target';

const ALLOWED = ['https://docs.example.com'];

test.each([
  ['/', '/'],
  ['/photos/3', '/photos/3'],
  ['/photos/3?from=feed#comments', '/photos/3?from=feed#comments'],
  ['/tags/caf%C3%A9', '/tags/caf%C3%A9'],
  ['https://docs.example.com/guide', 'https://docs.example.com/guide'],
])('%s is followed', (target, expected) => {
  expect(checkRedirectTarget(target, ALLOWED)).toBe(expected);
});

test.each([
  ['//evil.example'],
  ['//evil.example/photos'],
  ['/\\evil.example'],
  ['\\\\evil.example'],
  ['\\/evil.example'],
  ['/\t/evil.example'],
  ['/%2F%2Fevil.example'],
  ['/%2f/evil.example'],
  ['/%5Cevil.example'],
  ['/%252F%252Fevil.example'],
  ['/.//evil.example'],
  ['/..//evil.example/photos'],
  ['/a/..//evil.example'],
  ['/.%2F%2Fevil.example'],
  ['/%2E//evil.example'],
  ['/./\\evil.example'],
  ['javascript:alert(1)'],
  ['JavaScript:alert(1)'],
  ['java\tscript:alert(1)'],
  ['java\nscript:alert(1)'],
  ['\njavascript:alert(1)'],
  [' javascript:alert(1)'],
  ['data:text/html,<script>alert(1)</script>'],
  ['vbscript:msgbox(1)'],
  ['https://evil.example/'],
  ['https://docs.example.com.evil.example/'],
  ['https://docs.example.com@evil.example/'],
  ['https://user:pass@docs.example.com/'],
  ['http://docs.example.com/'],
  ['evil.example'],
  ['photos/3'],
  [''],
  ['/%E0%A4%A'],
  ['/photos\u0000'],
])('%j is refused', (target) => {
  expect(checkRedirectTarget(target, ALLOWED)).toBeNull();
});

test('an origin is followed only when the app allows it', () => {
  expect(checkRedirectTarget('https://docs.example.com/guide')).toBeNull();
});
