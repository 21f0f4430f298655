/**
 * `"use server"` modules: a module whose first statement is that directive exports
 * server functions. The client build gets one reference per export in its place; the server
 * build keeps the functions and marks each for progressive forms. Ids come from the module's
 * path relative to the source root (the app directory's parent), the same in both builds; which
 * modules an app has is `reachable-actions.ts`'s answer.
 *
 * Whether a module is one is read from the parser's tree, never from the text: a comment or a
 * string that mentions the directive changes nothing.
 *
 * Exports must be named functions: `export async function f()` or `export const f = async () =>`.
 */
import { parseSync, type ESTree, type ParseResult } from 'vite';
import { actionId } from './action-registry.js';

const FUNCTION_EXPORT = /^export\s+(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/gm;
const CONST_EXPORT = /^export\s+(?:const|let|var)\s+([A-Za-z_$][\w$]*)/gm;
const OTHER_EXPORT = /^export\s+(?:default\b|\{|\*)/m;

/** A source file parsed as its extension says: TypeScript, TSX, or JavaScript with JSX. */
export function parseModule(path: string, code: string): ParseResult {
  const lang = /\.[cm]?ts$/.test(path) ? 'ts' : path.endsWith('.tsx') ? 'tsx' : 'jsx';
  return parseSync(path, code, { lang, sourceType: 'module' });
}

/** Whether the directive prologue (the string statements a module opens with) holds `'use server'`. */
export function isUseServer(program: ESTree.Program): boolean {
  for (const node of program.body) {
    if (node.type !== 'ExpressionStatement' || typeof node.directive !== 'string') return false;
    if (node.directive === 'use server') return true;
  }
  return false;
}

/** The names a `"use server"` module exports; any other kind of export is a build error. */
export function serverExports(code: string, file: string): string[] {
  if (OTHER_EXPORT.test(code)) {
    throw new Error(
      `${file}: a "use server" module exports named functions only (no default export, no export lists)`,
    );
  }
  return [...code.matchAll(FUNCTION_EXPORT), ...code.matchAll(CONST_EXPORT)].map((m) => m[1]!);
}

/** What the browser gets for the module: a reference per export, and nothing of its code. */
export function clientModule(names: readonly string[], relativeFile: string, runtime: string): string {
  const lines = names.map(
    (name) =>
      `export const ${name} = createServerReference(${JSON.stringify(actionId(relativeFile, name))});`,
  );
  return [`import { createServerReference } from ${JSON.stringify(runtime)};`, ...lines].join('\n');
}

/** What the server gets: the module as written, each export marked for progressive forms. */
export function serverModule(
  code: string,
  names: readonly string[],
  relativeFile: string,
  runtime: string,
): string {
  const marks = names.map(
    (name) => `__syRegister(${name}, ${JSON.stringify(actionId(relativeFile, name))});`,
  );
  return [
    code,
    `import { registerServerReference as __syRegister } from ${JSON.stringify(runtime)};`,
    ...marks,
  ].join('\n');
}
