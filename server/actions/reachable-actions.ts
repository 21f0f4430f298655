/**
 * The `"use server"` modules an app can reach: every source file in its app directory, and
 * what those import, transitively, while it stays under the source root and outside
 * `node_modules`. A module nothing in the app imports is not one of its actions, wherever it
 * lives: two apps side by side (or an app and the test fixtures) never see each other's. Tests
 * kept beside the routes (`*.test.ts`, `*.spec.tsx`, a `__tests__` folder) are not the app: what
 * only they import (a seeding helper) is no action a client can call.
 *
 * Imports are read from the parser's module record: one written in a comment or a string leads
 * nowhere, and a type-only import loads nothing. An import of inline types only (`import { type
 * A } from './x'`) is what the build makes of it: under TypeScript's `verbatimModuleSyntax` it
 * stays as `import './x'` and loads the module, without it it goes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { parseSync, transformWithOxc, type ParseResult, type ResolvedConfig } from 'vite';
import { isUseServer, parseModule } from './use-server.js';

const SOURCE = /\.[cm]?[jt]sx?$/;
const TEST = /\.(?:test|spec)\.[cm]?[jt]sx?$|(?:^|[\\/])__tests__[\\/]/;

export interface ReachOptions {
  /** Where a specifier imported by `importer` leads, as a file path, or undefined. */
  resolveImport: (specifier: string, importer: string) => Promise<string | undefined>;
  /** Whether the build keeps an import of inline types only in `file`, as `import './x'`. */
  keepsInlineTypeImports: (file: string) => Promise<boolean>;
}

/** Absolute paths of the reachable `"use server"` modules, sorted. */
export async function reachableModules(
  appDir: string,
  root: string,
  { resolveImport, keepsInlineTypeImports }: ReachOptions,
): Promise<string[]> {
  const inside = (path: string) =>
    path.startsWith(root + sep) && SOURCE.test(path) && !path.includes(`${sep}node_modules${sep}`);
  const queue = readdirSync(appDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !TEST.test(path.slice(appDir.length)));
  const seen = new Set(queue);
  const found: string[] = [];
  while (queue.length > 0) {
    const file = queue.pop()!;
    let code: string;
    try {
      code = readFileSync(file, 'utf8');
    } catch {
      continue; // a path a resolver made up, or a file removed meanwhile
    }
    // A file that does not parse yields what the parser recovered; its build reports the error.
    const parsed = parseModule(file, code);
    // The tree is built (when read) only for a file that mentions the directive: it costs more than the parse.
    if (code.includes('use server') && isUseServer(parsed.program)) found.push(file);
    const specifiers = importedSpecifiers(code, parsed.module);
    const inlineTypes = inlineTypeImports(code, parsed.module);
    if (inlineTypes.length > 0 && (await keepsInlineTypeImports(file))) specifiers.push(...inlineTypes);
    for (const specifier of specifiers) {
      const target = (await resolveImport(specifier, file))?.split('?')[0];
      if (target && inside(target) && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return found.sort();
}

/**
 * Asks Vite's TypeScript transform, with the options and the tsconfig `file` is built with, what
 * it makes of an import of inline types only: kept (`import './x'`) or gone. `config` is the
 * build's; without one (the testing kit), Vite's defaults.
 */
export function inlineTypeImportsKept(config?: ResolvedConfig): ReachOptions['keepsInlineTypeImports'] {
  return async (file) => {
    // Another plugin compiles TypeScript: the module may load, so it is followed.
    if (config?.oxc === false) return true;
    // What Vite's own plugin takes out before it calls the transform: its filters, its injection.
    const {
      include: _include,
      exclude: _exclude,
      jsxInject: _jsxInject,
      jsxRefreshInclude: _jsxRefreshInclude,
      jsxRefreshExclude: _jsxRefreshExclude,
      ...options
    } = config?.oxc ?? {};
    const { code } = await transformWithOxc(
      "import { type A } from './a';",
      file,
      options,
      undefined,
      config,
    );
    return /\bimport\b/.test(code);
  };
}

/**
 * Static imports, re-exports, and dynamic imports whose specifier is a literal; types left out,
 * and imports of types only (see `inlineTypeImports`). Read from the parser's module record,
 * which is cheap: building the whole tree costs several times the parse. A re-export of inline
 * types only (`export { type A } from './x'`) goes in the build with or without
 * `verbatimModuleSyntax`: it is left out too.
 */
export function importedSpecifiers(code: string, module: ParseResult['module']): string[] {
  const staticImports = module.staticImports
    .filter((statement) => !isTypesOnly(statement))
    .map((statement) => statement.moduleRequest.value);
  const reExports = module.staticExports
    .flatMap((statement) => statement.entries)
    .filter((entry) => entry.moduleRequest && !entry.isType)
    .map((entry) => entry.moduleRequest!.value);
  const dynamicImports = module.dynamicImports.flatMap(({ moduleRequest: { start, end } }) => {
    const specifier = literalText(code.slice(start, end));
    return specifier === undefined ? [] : [specifier];
  });
  return [...staticImports, ...reExports, ...dynamicImports];
}

/**
 * The static imports whose specifiers are all inline types (`import { type A } from './x'`), not
 * an `import type` statement: the record marks both alike, so each such statement's text is
 * parsed alone for the keyword's place.
 */
export function inlineTypeImports(code: string, module: ParseResult['module']): string[] {
  return module.staticImports
    .filter((statement) => isTypesOnly(statement))
    .filter(({ start, end }) => {
      const [statement] = parseSync('import.ts', code.slice(start, end)).program.body;
      return statement?.type === 'ImportDeclaration' && statement.importKind !== 'type';
    })
    .map((statement) => statement.moduleRequest.value);
}

function isTypesOnly({ entries }: { entries: readonly { isType: boolean }[] }): boolean {
  return entries.length > 0 && entries.every((entry) => entry.isType);
}

/**
 * The value of a dynamic import's argument when it is a string literal, or a template literal
 * without substitutions. The record gives the argument's place only: its text is parsed alone.
 */
function literalText(argument: string): string | undefined {
  const [statement] = parseSync('specifier.js', `(${argument});`).program.body;
  if (statement?.type !== 'ExpressionStatement') return undefined;
  let node = statement.expression;
  if (node.type === 'ParenthesizedExpression') node = node.expression;
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : undefined;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0)
    return node.quasis[0]!.value.cooked ?? undefined;
  return undefined;
}
