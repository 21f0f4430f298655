/**
 * `revalidatePath(path)`: called inside a server action, it records that the data
 * shown at `path` changed. The action's answer carries the paths; the browser drops their
 * prefetch entries and fetches the current page's data again. Outside an action it is a misuse.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Revalidated } from '../../shared/actions.js';

/** Per action: `type path` → the entry, so a path named twice is sent once. */
const current = new AsyncLocalStorage<Map<string, Revalidated>>();

/**
 * Runs an action, collecting the paths it revalidates into `paths`: also when it then throws,
 * since "change the data, then redirect" is how an action usually ends.
 */
export function runRevalidating<T>(paths: Map<string, Revalidated>, run: () => Promise<T>): Promise<T> {
  return current.run(paths, run);
}

/**
 * Marks the data of a path as changed, from a server action: that page (`'page'`, the default),
 * or that path and everything below it (`'layout'`), as in Next.js.
 *
 * @example
 * export async function addComment(photoId: string, text: string) {
 *   store.addComment(photoId, text);
 *   revalidatePath(`/photos/${photoId}`);
 * }
 */
export function revalidatePath(path: string, type: 'page' | 'layout' = 'page'): void {
  const paths = current.getStore();
  if (!paths) throw new Error('revalidatePath() can only be called while a server action runs');
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError(`revalidatePath() takes a path such as /photos/3, got ${String(path)}`);
  }
  if (type !== 'page' && type !== 'layout') {
    throw new TypeError(`revalidatePath() takes 'page' or 'layout' as its type, got ${String(type)}`);
  }
  const bare = path.split(/[?#]/)[0]!;
  paths.set(`${type} ${bare}`, { path: bare, type });
}
