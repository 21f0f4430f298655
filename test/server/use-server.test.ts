/**
 * `"use server"` modules: which modules are, what their exports are, and what each
 * build gets in their place — the browser none of the module's code, both the same ids.
 */
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import {
  clientModule,
  isUseServer,
  parseModule,
  serverExports,
  serverModule,
} from '../../server/actions/use-server';
import { switchyardPlugin } from '../../server/vite/vite-plugin';

test.each([
  ["'use server';\nexport async function a() {}", true],
  ['"use server"\nexport async function a() {}', true],
  ["// comment\n/* block */\n'use server';", true],
  ["import x from 'y';\n'use server';", false],
  ["const s = 'use server';", false],
  ["'use client';", false],
  ["'use strict';\n'use server';", true],
  ["// 'use server';\nexport async function a() {}", false],
  ["/* 'use server' */\nexport async function a() {}", false],
  ['`use server`;', false],
  ["'use server' + '';", false],
  ["('use server');", false],
  ["export const note = `\n'use server';`;", false],
])('%j is a "use server" module: %s', (code, expected) => {
  expect(isUseServer(parseModule('a.ts', code).program)).toBe(expected);
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

describe("the Vite plugin's transform", () => {
  const appDir = resolve('src/app');
  const plugin = switchyardPlugin({ appDir, serverDir: resolve('server') });
  /** The plugin's transform of `code` at src/lib/`name` for the browser: its output, or null if left alone. */
  const transform = (name: string, code: string) => {
    const context = {
      environment: { config: { consumer: 'client' } },
      error(message: string): never {
        throw new Error(message);
      },
    };
    const hook = plugin.transform as (
      this: typeof context,
      code: string,
      id: string,
    ) => { code: string } | string | null;
    return hook.call(context, code, join(appDir, '..', 'lib', name));
  };

  test('leaves alone a module that only mentions the directive, in a comment or a string', () => {
    expect(transform('a.ts', "// 'use server'\nexport const a = 1;")).toBeNull();
    expect(transform('b.ts', 'export const b = "\'use server\'";')).toBeNull();
  });

  test('turns a module whose prologue holds the directive into references', () => {
    const out = transform('c.ts', "'use strict';\n'use server';\nexport async function c() {}");
    expect(out).toContain(`createServerReference("${actionId('lib/c.ts', 'c')}")`);
  });

  test('refuses a module that mentions the directive and does not parse, naming the file', () => {
    expect(() => transform('d.ts', "'use server';\nexport const = 5;")).toThrow(/^src\/lib\/d\.ts: /);
  });
});
