/**
 * Where the framework's own modules are: in a checkout of the repository, its TypeScript
 * sources at the root (run through tsx); in the installed package, `lib/`, the same tree
 * compiled to `.js`. Modules are named by their source path either way.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding the framework's `client/`, `server/` and `shared/`. */
export const FRAMEWORK_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/[\\/]$/, '');
/** This very module is `.ts` only in a checkout. */
export const FROM_SOURCE = import.meta.url.endsWith('.ts');

/** The absolute path of one of the framework's modules, named by its source path. */
export function frameworkFile(sourcePath: string): string {
  return join(FRAMEWORK_ROOT, FROM_SOURCE ? sourcePath : sourcePath.replace(/\.tsx?$/, '.js'));
}
