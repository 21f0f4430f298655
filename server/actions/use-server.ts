/**
 * `"use server"` modules: a module whose first statement is that directive exports
 * server functions. The client build gets one reference per export in its place; the server
 * build keeps the functions and marks each for progressive forms. Ids come from the module's
 * path relative to the source root (the app directory's parent), the same in both builds; which
 * modules an app has is `reachable-actions.ts`'s answer.
 *
 * Exports must be named functions: `export async function f()` or `export const f = async () =>`.
 */
import { actionId } from './action-registry.js';

const DIRECTIVE = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(['"])use server\1/;
const FUNCTION_EXPORT = /^export\s+(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/gm;
const CONST_EXPORT = /^export\s+(?:const|let|var)\s+([A-Za-z_$][\w$]*)/gm;
const OTHER_EXPORT = /^export\s+(?:default\b|\{|\*)/m;

export function isUseServer(code: string): boolean {
  return DIRECTIVE.test(code);
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
