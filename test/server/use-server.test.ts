/**
 * `"use server"` modules: which modules are, what their exports are, and what each
 * build gets in their place — the browser none of the module's code, both the same ids.
 */
import { expect, test } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { clientModule, isUseServer, serverExports, serverModule } from '../../server/actions/use-server';

test.each([
  ["'use server';\nexport async function a() {}", true],
  ['"use server"\nexport async function a() {}', true],
  ["// comment\n/* block */\n'use server';", true],
  ["import x from 'y';\n'use server';", false],
  ["const s = 'use server';", false],
  ["'use client';", false],
])('%j is a "use server" module: %s', (code, expected) => {
  expect(isUseServer(code)).toBe(expected);
});

test('exports: functions and consts, in any order', () => {
  const code = `'use server';
export async function likePhoto() {}
export function plain() {}
export const addComment = async () => {};`;
  expect(serverExports(code, 'a.ts').sort()).toEqual(['addComment', 'likePhoto', 'plain']);
});

test.each(['export default async function () {}', 'export { a, b };', "export * from './x';"])(
  '%j is a build error naming the file',
  (line) => {
    expect(() => serverExports(`'use server';\n${line}`, 'lib/actions.ts')).toThrow(
      /lib\/actions\.ts: .*named functions only/,
    );
  },
);

test('the client module is references only: none of the code, none of its imports', () => {
  const out = clientModule(['likePhoto'], 'lib/actions.ts', '/runtime.ts');
  expect(out).toBe(
    `import { createServerReference } from "/runtime.ts";\nexport const likePhoto = createServerReference("${actionId('lib/actions.ts', 'likePhoto')}");`,
  );
});

test('the server module keeps the code and marks each export with the same id', () => {
  const code =
    "'use server';\nimport { db } from './db.server';\nexport async function likePhoto() { return db(); }";
  const out = serverModule(code, ['likePhoto'], 'lib/actions.ts', '/runtime.ts');
  expect(out.startsWith(code)).toBe(true);
  expect(out).toContain(`__syRegister(likePhoto, "${actionId('lib/actions.ts', 'likePhoto')}");`);
});
