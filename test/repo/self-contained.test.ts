/**
 * The repository explains itself: its code, docs and guides state the rules they follow (or link
 * the docs page that does), and never cite a requirement id of a spec kept outside the repository
 * or a path outside it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const PLACES = [
  'client',
  'server',
  'shared',
  'src',
  'docs',
  'bin',
  'scripts',
  'test',
  'ARCHITECTURE.md',
  'README.md',
  'eslint.config.js',
  'vite.config.ts',
  'vitest.config.ts',
];
const TEXT = /\.(ts|tsx|js|mjs|md|css|json)$/;
/** This file names what it looks for. */
const SELF = relative(ROOT, import.meta.filename);

function filesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesOf(join(path, name)));
}

test('no file cites the outside spec or its requirement ids', () => {
  const citations = PLACES.flatMap((place) => filesOf(join(ROOT, place)))
    .filter((file) => TEXT.test(file) && relative(ROOT, file) !== SELF)
    .flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /\bSPEC\b|shared\/SPEC/.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [],
        ),
    );
  expect(citations).toEqual([]);
});
