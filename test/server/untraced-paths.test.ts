import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';
import { isUntracedPath } from '../../server/sentry/untraced-paths.mjs';

/** A built client folder: hashed assets, public files, Vite's dot-folder, a lone gzip twin. */
const dir = mkdtempSync(join(tmpdir(), 'untraced-'));
for (const file of [
  'assets/entry-abc123.js',
  'robots.txt',
  'downloads/report.pdf',
  'a b.txt',
  '.well-known/security.txt',
  '.vite/manifest.json',
  'only-compressed.txt.gz',
]) {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), 'x');
}
const untraced = isUntracedPath({ tunnelPath: '/monitoring', clientDir: dir });

test.each<[string, boolean]>([
  ['/monitoring', true],
  ['/monitoring?o=1', true],
  ['/assets/entry-abc123.js', true],
  ['/robots.txt', true],
  ['/downloads/report.pdf', true],
  ['/downloads/report.pdf?v=2', true],
  ['/a%20b.txt', true],
  ['/.well-known/security.txt', true],
  ['/only-compressed.txt', true],
  // Not served, so a page answers it (a 404): traced as any page is.
  ['/.vite/manifest.json', false],
  ['/', false],
  ['/photos/1', false],
  ['/downloads', false],
  ['/monitoring/x', false],
  ['/%E0%A4%A', false],
])('%s untraced: %s', (path, expected) => {
  expect(untraced(path)).toBe(expected);
});

test('with no build folder only the tunnel and the assets are untraced', () => {
  const untraced = isUntracedPath({ tunnelPath: '/monitoring', clientDir: undefined });
  expect(['/monitoring', '/assets/x.js', '/robots.txt'].map(untraced)).toEqual([true, true, false]);
});
