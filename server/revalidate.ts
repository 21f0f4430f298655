/**
 * `revalidatePath(path)` (SPEC A3): called inside a server action, it records that the data
 * shown at `path` changed. The action's answer carries the paths; the browser drops their
 * prefetch entries and fetches the current page's data again. Outside an action it is a misuse.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<Set<string>>();

/** Runs an action, collecting the paths it revalidates. */
export async function collectRevalidated<T>(run: () => Promise<T>): Promise<{ result: T; paths: string[] }> {
  const paths = new Set<string>();
  const result = await current.run(paths, run);
  return { result, paths: [...paths] };
}

/**
 * Marks the data of a path as changed, from a server action.
 *
 * @example
 * export async function addComment(photoId: string, text: string) {
 *   store.addComment(photoId, text);
 *   revalidatePath(`/photos/${photoId}`);
 * }
 */
export function revalidatePath(path: string): void {
  const paths = current.getStore();
  if (!paths) throw new Error('revalidatePath() can only be called while a server action runs');
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new TypeError(`revalidatePath() takes a path such as /photos/3, got ${String(path)}`);
  }
  paths.add(path.split(/[?#]/)[0]!);
}
