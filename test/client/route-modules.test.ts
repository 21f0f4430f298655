/**
 * Route modules for a navigation: a module imported once is handed over at once after, with no
 * task in between, so a prefetched click renders its page in the click's own task.
 */
import { expect, test } from 'vitest';
import { loadRouteModules, type Importers } from '../../client/browser-start';

/** Importers that settle a task later, as a browser's dynamic import does even for a module it holds. */
function importersOf(files: string[]) {
  const calls: string[] = [];
  const importers: Importers = Object.fromEntries(
    files.map((file) => [
      file,
      () => {
        calls.push(file);
        return new Promise<Record<string, unknown>>((resolve) => setTimeout(() => resolve({ file }), 0));
      },
    ]),
  );
  return { importers, calls };
}

/** Whether `load` settles before a task queued just before it. */
async function beforeNextTask(load: () => Promise<unknown>): Promise<boolean> {
  let taskRan = false;
  setTimeout(() => (taskRan = true), 0);
  await load();
  return !taskRan;
}

test('modules imported once are handed over without a task, and imported once', async () => {
  const { importers, calls } = importersOf(['layout.tsx', 'a/page.tsx', 'b/page.tsx']);
  const branch = ['layout.tsx', 'a/page.tsx'];
  expect(await beforeNextTask(() => loadRouteModules(importers, branch))).toBe(false);
  expect(await beforeNextTask(() => loadRouteModules(importers, branch))).toBe(true);
  expect((await loadRouteModules(importers, branch)).get('a/page.tsx')).toEqual({ file: 'a/page.tsx' });

  // A branch with one new module imports only that one.
  const other = await loadRouteModules(importers, ['layout.tsx', 'b/page.tsx']);
  expect([...other.values()]).toEqual([{ file: 'layout.tsx' }, { file: 'b/page.tsx' }]);
  expect(calls).toEqual(['layout.tsx', 'a/page.tsx', 'b/page.tsx']);
});

test('a failed import is not kept: the next navigation imports it again', async () => {
  let attempts = 0;
  const importers: Importers = {
    'page.tsx': () =>
      ++attempts === 1 ? Promise.reject(new Error('offline')) : Promise.resolve({ ok: true }),
  };
  await expect(loadRouteModules(importers, ['page.tsx'])).rejects.toThrow('offline');
  expect((await loadRouteModules(importers, ['page.tsx'])).get('page.tsx')).toEqual({ ok: true });
  expect(attempts).toBe(2);
});
