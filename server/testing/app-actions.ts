/**
 * The server actions of an app under test, found as the build finds them (the `"use server"`
 * modules its app directory reaches) and imported through the test runner: the table the server
 * calls by id, and each function's id, so a test calls an action by the function it imported.
 * Only relative imports are followed: a module reached only through a path alias is not found.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { registerServerReference } from '../../client/server-reference.js';
import { actionId } from '../actions/action-registry.js';
import { inlineTypeImportsKept, reachableModules } from '../actions/reachable-actions.js';
import { checkServerExports, parseModule } from '../actions/use-server.js';
import type { ActionModules } from '../options.js';

export interface AppActions {
  modules: ActionModules;
  /** The id of an action function, or undefined for any other value. */
  idOf(action: unknown): string | undefined;
}

const EXTENSIONS = ['', '.ts', '.tsx', '.js', '.jsx', '.mts', '.mjs', '/index.ts', '/index.tsx', '/index.js'];

/** A relative specifier as a file, TypeScript's way: `./a.js` may name `./a.ts`. */
async function resolveRelative(specifier: string, importer: string): Promise<string | undefined> {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(importer), specifier);
  const candidates = [...EXTENSIONS.map((ext) => base + ext), base.replace(/\.(m?)js(x?)$/, '.$1ts$2')];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

export async function findActions(
  appDir: string,
  load: (file: string) => Promise<Record<string, unknown>>,
): Promise<AppActions> {
  // Ids are paths relative to the app directory's parent, as in the build.
  const sourceRoot = dirname(appDir);
  const files = await reachableModules(appDir, sourceRoot, {
    resolveImport: resolveRelative,
    keepsInlineTypeImports: inlineTypeImportsKept(),
  });
  const modules: Record<string, () => Promise<unknown>> = {};
  const ids = new Map<unknown, string>();
  for (const path of files) {
    const file = relative(sourceRoot, path).split(sep).join('/');
    // A module the build would refuse is refused here too, with the same message.
    const exports = checkServerExports(parseModule(path, readFileSync(path, 'utf8')).program, file);
    const loaded = await load(path);
    for (const { name } of exports) {
      const id = actionId(file, name);
      const action = loaded[name];
      // Marked as the server build marks it, once (an earlier test app may have): a form
      // rendered with it posts to its id.
      if (typeof action === 'function' && !('$$id' in action)) registerServerReference(action, id);
      modules[id] = () => Promise.resolve(action);
      ids.set(action, id);
    }
  }
  return { modules, idOf: (action) => ids.get(action) };
}
