/**
 * Writes the route types of an app into `.switchyard/types/<app dir>/routes.d.ts` under the
 * project root: one folder per app directory, so building a second app of one project never
 * replaces the first one's types. The file is rewritten only when its text changes, so an
 * editor's TypeScript server sees no churn.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { RouteNode } from '../shared/route-tree.js';
import { appTypesOf, formatRouteTypes } from '../shared/route-types.js';

/** The project-relative folder of generated declarations; git-ignored with the rest of `.switchyard/`. */
export const TYPES_DIR = '.switchyard/types';

/** Where the route types of `appDir` go. */
export function routeTypesPath(root: string, appDir: string): string {
  return join(root, TYPES_DIR, relative(root, appDir).split(sep).join('/'), 'routes.d.ts');
}

/** Writes the declarations for `tree`; returns their path, and whether the file changed. */
export function writeRouteTypes(
  root: string,
  appDir: string,
  tree: RouteNode,
): { path: string; changed: boolean } {
  const path = routeTypesPath(root, appDir);
  // The declarations reach the app's server modules by a path relative to their own folder.
  const appPath = relative(dirname(path), appDir).split(sep).join('/');
  const text = formatRouteTypes(appTypesOf(tree), appPath);
  let current: string | undefined;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) return { path, changed: false };
  mkdirSync(dirname(path), { recursive: true });
  // Written whole, then renamed: a type checker never reads half a file.
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
  return { path, changed: true };
}
