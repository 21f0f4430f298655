/**
 * Which `"use server"` modules an app has: those in its app directory and those its files
 * import, and never one that merely sits beside it (another app, the test fixtures).
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { reachableModules } from '../../server/actions/reachable-actions';
import { isUseServer } from '../../server/actions/use-server';

const ROOT = resolve('.');
/** Relative specifiers the way the bundler resolves them here; anything else leads nowhere. */
const resolveImport = async (specifier: string, importer: string) => {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(importer), specifier);
  return ['', '.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find((path) => existsSync(path));
};
const reach = async (appDir: string, root: string) =>
  (await reachableModules(resolve(appDir), resolve(root), resolveImport, isUseServer)).map((p) =>
    p.slice(ROOT.length + 1),
  );

test('the demo reaches its actions through the components its routes import', async () => {
  expect(await reach('src/app', 'src')).toEqual(['src/lib/actions.ts', 'src/lib/session-actions.ts']);
});

test('an app at the root of the repository does not see the fixtures’ or the demo’s actions', async () => {
  // `--app test/fixtures/slots` has the fixtures as its source root, where basic/actions.ts lives.
  expect(await reach('test/fixtures/slots', 'test/fixtures')).toEqual([]);
  expect(await reach('test/fixtures/basic', 'test/fixtures')).toEqual(['test/fixtures/basic/actions.ts']);
  // The bench app sits at the repository's top level, beside src/ and test/.
  expect(await reach('scripts/bench/app', 'scripts/bench')).toEqual([]);
});
