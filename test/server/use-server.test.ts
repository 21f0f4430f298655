/**
 * `"use server"` modules: which modules are, what their exports are, and what each
 * build gets in their place — the browser none of the module's code, both the same ids.
 */
import { join, resolve } from 'node:path';
import { parseSync } from 'vite';
import { describe, expect, test } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import {
  checkServerExports,
  clientModule,
  isUseServer,
  parseModule,
  serverExports,
  serverModule,
} from '../../server/actions/use-server';
import { actionEntry, switchyardPlugin } from '../../server/vite/vite-plugin';

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

const REEXPORTED =
  "is re-exported from another module: export it from a 'use server' module of its own (or export an async function here that calls it)";

/** The exports of a `'use server'` module holding `code`: what a client can call, and what the build refuses. */
const exportsOf = (code: string) => serverExports(parseModule('a.ts', `'use server';\n${code}`).program);

test.each([
  ['export async function a() {}', ['a']],
  ['export const a = async () => {}, b = async function () {};', ['a', 'b']],
  ['export const a = (async () => {}) satisfies Action;', ['a']],
  ['async function a() {}\nconst b = async () => {};\nexport { a, b as c };', ['a', 'c']],
  // What the build cannot judge is called and checked at call time.
  ['export const a = withUser(async () => {});', ['a']],
  ["import { b } from './b';\nexport const a = withUser(b);", ['a']],
  // A member of a local value, or a call on an imported one, is a value of this module's own.
  ["import * as b from './b';\nexport const a = b.c.bind(null);", ['a']],
  ['const handlers = { a: async () => {} };\nexport const a = handlers.a;', ['a']],
  // A choice among this module's own values is callable, and checked at call time.
  ['async function b() {}\nexport const a = flag ? b : async () => {};', ['a']],
  ['export const a = local ?? (async () => {});', ['a']],
  // `x && f` gives `x` only when it is falsy, and no falsy value is a function: an import there gives none.
  ["import { env } from './env';\nexport const a = env.DEBUG && (async () => {});", ['a']],
  // A type imported and exported again is erased too.
  ["import { type B, b } from './b';\nexport type { B };\nexport async function a() { return b(); }", ['a']],
  // Types are erased: nothing to call, nothing to refuse.
  ['export type A = 1;\nexport interface B {}\nexport declare const c: number;', []],
  ["export type { D } from './d';\nexport type * from './e';", []],
])('%j exports the actions %j', (code, names) => {
  expect(exportsOf(code)).toEqual({
    callable: names.map((name) => expect.objectContaining({ name })),
    refused: [],
  });
});

test.each([
  ['export const LIMIT = 5;', 'LIMIT is not an async function'],
  ['export const config = { max: 5 };', 'config is not an async function'],
  ['export const greeting = `hi`;', 'greeting is not an async function'],
  ['export let later;', 'later is not an async function'],
  ['export function plain() {}', 'plain is not an async function'],
  ['export const sync = () => 1;', 'sync is not an async function'],
  ['export async function* stream() {}', 'stream is not an async function'],
  ['export class Store {}', 'Store is not an async function'],
  ['export enum Kind { A }', 'Kind is not an async function'],
  ['const LIMIT = 5;\nexport { LIMIT };', 'LIMIT is not an async function'],
  ['export default async function () {}', 'the default export has no name to call it by: export it by name'],
  ['async function a() {}\nexport { a as default };', 'a is exported as default: export it by name'],
  ["export * from './x';", `export … from "./x": what it exports ${REEXPORTED}`],
  ["export { a } from './x';", `export … from "./x": what it exports ${REEXPORTED}`],
  // Marking another module's function as an action would change it there too.
  ["import { b } from './b';\nexport { b };", `b ${REEXPORTED}`],
  ["import { b } from './b';\nexport { b as c };", `c ${REEXPORTED}`],
  ["import b from './b';\nexport { b };", `b ${REEXPORTED}`],
  ["import * as b from './b';\nexport { b };", `b ${REEXPORTED}`],
  ["import { b } from './b';\nexport const c = b;", `c ${REEXPORTED}`],
  ["import { b } from './b';\nconst c = b as Action;\nexport { c };", `c ${REEXPORTED}`],
  // A member of an import is a function the other module holds too.
  ["import * as b from './b';\nexport const c = b.c;", `c ${REEXPORTED}`],
  ["import * as b from './b';\nexport const c = b['c'];", `c ${REEXPORTED}`],
  ["import * as b from './b';\nexport const c = b?.c;", `c ${REEXPORTED}`],
  ["import { api } from './b';\nexport const c = (api.users.remove) as Action;", `c ${REEXPORTED}`],
  ["import * as b from './b';\nconst c = b.c;\nexport { c };", `c ${REEXPORTED}`],
  // A type argument given to it changes nothing at run time: it is the same function.
  ["import * as b from './b';\nexport const c = b.get<User>;", `c ${REEXPORTED}`],
  // A choice that may give another module's function is refused as that function would be.
  ["import * as b from './b';\nasync function h() {}\nexport const c = flag ? b.c : h;", `c ${REEXPORTED}`],
  ["import { b } from './b';\nexport const c = flag ? async () => {} : b;", `c ${REEXPORTED}`],
  ["import * as b from './b';\nexport const c = local ?? b.c;", `c ${REEXPORTED}`],
  ["import * as b from './b';\nexport const c = (0, b.c);", `c ${REEXPORTED}`],
  ["import * as b from './b';\nexport const c = flag && b.c;", `c ${REEXPORTED}`],
  // An assignment is the value assigned; awaiting a function gives the function.
  ["import * as b from './b';\nlet x;\nexport const c = (x = b.c);", `c ${REEXPORTED}`],
  ["import * as b from './b';\nexport const c = await b.c;", `c ${REEXPORTED}`],
  ["import * as b from './b';\nlet x;\nexport const c = (x ??= b.c);", `c ${REEXPORTED}`],
  ["import * as b from './b';\nexport const c = b.enabled && 5;", 'c is not an async function'],
  ["export const c = flag ? 1 : 'one';", 'c is not an async function'],
  [
    'export const { a, b } = actions;',
    'a destructured export is not checked here: export each async function by name',
  ],
])('%j is refused: %s', (code, reason) => {
  expect(exportsOf(code).refused).toEqual([reason]);
});

test('a refused export is a build error naming the file and every export refused, and leaves the others callable', () => {
  const { program } = parseModule(
    'a.ts',
    "'use server';\nexport const LIMIT = 5;\nexport async function go() {}\nexport function plain() {}",
  );
  expect(serverExports(program).callable).toEqual([{ name: 'go', local: 'go' }]);
  expect(() => checkServerExports(program, 'lib/actions.ts')).toThrow(
    "lib/actions.ts: only async functions can be exported from a 'use server' module (each is an action a client can call by its name):\n" +
      '  - LIMIT is not an async function\n' +
      '  - plain is not an async function',
  );
});

test('the client module is references only: none of the code, none of its imports', () => {
  const out = clientModule([{ name: 'likePhoto', local: 'likePhoto' }], 'lib/actions.ts', '/runtime.ts');
  expect(out).toBe(
    `import { createServerReference } from "/runtime.ts";\nconst reference0 = createServerReference("${actionId('lib/actions.ts', 'likePhoto')}");\nexport { reference0 as likePhoto };`,
  );
});

test('the client module exports every name the module does: a reserved word, the runtime’s own', () => {
  const code =
    "'use server';\nasync function remove() {}\nasync function make() {}\nexport { remove as delete, make as createServerReference };";
  const out = clientModule(
    checkServerExports(parseModule('a.ts', code).program, 'a.ts'),
    'lib/a.ts',
    '/runtime.ts',
  );
  const { errors, module } = parseSync('client.js', out, { sourceType: 'module', showSemanticErrors: true });
  expect(errors).toEqual([]);
  expect(
    module.staticExports.flatMap(({ entries }) => entries.map((entry) => entry.exportName.name)),
  ).toEqual(['delete', 'createServerReference']);
});

test('the server module keeps the code and marks each export with the same id, through its own binding', () => {
  const code =
    "'use server';\nimport { db } from './db.server';\nasync function like() { return db(); }\nexport { like as likePhoto };";
  const out = serverModule(code, [{ name: 'likePhoto', local: 'like' }], 'lib/actions.ts', '/runtime.ts');
  expect(out.startsWith(code)).toBe(true);
  expect(out).toContain(`__syRegister(like, "${actionId('lib/actions.ts', 'likePhoto')}");`);
});

test('the actions module loads an export by any name an export list can give', () => {
  const lines = ['likePhoto', 'delete', 'a-b'].map((name) =>
    actionEntry(`id-${name}`, '/app/actions.ts', name),
  );
  const { errors } = parseSync('actions.js', `export const actions = {\n${lines.join('\n')}\n};`);
  expect(errors).toEqual([]);
  expect(lines[2]).toContain('then((m) => m["a-b"])');
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

  test('refuses a module that exports a value, naming the file and the export', () => {
    expect(() => transform('e.ts', "'use server';\nexport const LIMIT = 5;")).toThrow(
      /^src\/lib\/e\.ts: only async functions can be exported from a 'use server' module .*\n {2}- LIMIT is not an async function$/,
    );
  });

  test("refuses a function whose own prologue holds 'use server' (an inline action), naming the file and line", () => {
    const component = [
      "import { db } from './db';",
      'export default function Page() {',
      '  async function save(form: FormData) {',
      "    'use server';",
      "    db.write(form.get('title'));",
      '  }',
      '  return <form action={save} />;',
      '}',
    ].join('\n');
    expect(() => transform('page.tsx', component)).toThrow(
      /^src\/lib\/page\.tsx:3: 'use server' inside a function is not supported/,
    );
    const arrow = "export const save = async () => {\n  'use server';\n};";
    expect(() => transform('f.ts', arrow)).toThrow(/^src\/lib\/f\.ts:1: 'use server' inside a function/);
    // The directive after the first statement is a plain string: nothing to refuse.
    expect(transform('g.ts', "export function g() {\n  go();\n  'use server';\n}")).toBeNull();
  });

  test('refuses a module that mentions the directive and does not parse, naming the file', () => {
    expect(() => transform('d.ts', "'use server';\nexport const = 5;")).toThrow(/^src\/lib\/d\.ts: /);
  });
});
