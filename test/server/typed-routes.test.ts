/**
 * The generated route types against the compiler: the real generator writes the declarations
 * of the typed-routes fixture app, then one `tsc` run checks the app's files. Their
 * `@ts-expect-error` lines must stay errors: one that stops being an error fails the run
 * ("Unused '@ts-expect-error' directive").
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { buildRouteTree } from '../../shared/route-tree';
import { scanAppDir } from '../../server/vite/scan-app-dir';
import { writeRouteTypes } from '../../server/typegen';

const root = fileURLToPath(new URL('../fixtures/typed-routes/', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

test('pages, layouts, loaders, params, links and href() type-check against the generated types', () => {
  const appDir = join(root, 'app');
  const { path } = writeRouteTypes(root, appDir, buildRouteTree(scanAppDir(appDir)));
  expect(path).toBe(join(root, '.switchyard/types/app/routes.d.ts'));
  const result = spawnSync(process.execPath, [tsc, '-p', root], { encoding: 'utf8', timeout: 60_000 });
  expect(result.stdout).toBe('');
  expect(result.status).toBe(0);
}, 90_000);
