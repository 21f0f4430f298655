/**
 * The `"use server"` modules an app can reach: every source file in its app directory, and
 * what those import, transitively, while it stays under the source root and outside
 * `node_modules`. A module nothing in the app imports is not one of its actions, wherever it
 * lives: two apps side by side (or an app and the test fixtures) never see each other's. Tests
 * kept beside the routes (`*.test.ts`, `*.spec.tsx`, a `__tests__` folder) are not the app: what
 * only they import (a seeding helper) is no action a client can call.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';

/** Static, re-exported, side-effect and dynamic imports with a literal specifier. */
const IMPORT =
  /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
const SOURCE = /\.[cm]?[jt]sx?$/;
const TEST = /\.(?:test|spec)\.[cm]?[jt]sx?$|(?:^|[\\/])__tests__[\\/]/;

/** Where a specifier imported by `importer` leads, as a file path, or undefined. */
export type ResolveImport = (specifier: string, importer: string) => Promise<string | undefined>;

/** Absolute paths of the reachable source files whose code `isAction` accepts, sorted. */
export async function reachableModules(
  appDir: string,
  root: string,
  resolveImport: ResolveImport,
  isAction: (code: string) => boolean,
): Promise<string[]> {
  const inside = (path: string) =>
    path.startsWith(root + sep) && SOURCE.test(path) && !path.includes(`${sep}node_modules${sep}`);
  const queue = readdirSync(appDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !TEST.test(path.slice(appDir.length)));
  const seen = new Set(queue);
  const found: string[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    let code: string;
    try {
      code = readFileSync(file, 'utf8');
    } catch {
      continue; // a path a resolver made up, or a file removed meanwhile
    }
    if (isAction(code)) found.push(file);
    for (const match of code.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      const target = (await resolveImport(specifier, file))?.split('?')[0];
      if (target && inside(target) && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return found.sort();
}
