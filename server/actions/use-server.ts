/**
 * `"use server"` modules: a module whose directive prologue holds `'use server'` exports server
 * functions. The client build gets one reference per export in its place; the server build keeps
 * the functions and marks each for progressive forms. Ids come from the module's path relative
 * to the source root (the app directory's parent), the same in both builds; which modules an app
 * has is `reachable-actions.ts`'s answer.
 *
 * Both questions are read from the parser's tree, never from the text: a comment or a string
 * that mentions the directive or an import changes nothing. Exports are async functions only, as
 * in Next.js: each one is an action anyone can call by its name (see `serverExports`).
 */
import { parseSync, type ESTree, type ParseResult } from 'vite';
import { actionId } from './action-registry.js';

/** An export a client can call: the name it is imported by, and the module's own binding. */
export interface ServerExport {
  name: string;
  local: string;
}

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

/**
 * Where a function's own prologue holds `'use server'`, as a Next.js server component's inline
 * action would: the offset of the first such function, or undefined. Switchyard has no inline
 * actions (a component's code runs in the browser too), so the build refuses the module rather
 * than send the function, and what it imports, to the browser as plain code.
 */
export function inlineServerFunction(program: ESTree.Program): number | undefined {
  const visit = (node: unknown): number | undefined => {
    if (Array.isArray(node)) {
      for (const child of node) {
        const found = visit(child);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (typeof node !== 'object' || node === null) return undefined;
    const { type, body } = node as { type?: string; body?: { type?: string; body?: ESTree.Statement[] } };
    if (
      (type === 'FunctionDeclaration' ||
        type === 'FunctionExpression' ||
        type === 'ArrowFunctionExpression') &&
      body?.type === 'BlockStatement' &&
      isUseServer({ body: body.body } as ESTree.Program)
    )
      return (node as { start: number }).start;
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'parent' && typeof value === 'object') {
        const found = visit(value);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return visit(program.body);
}

/**
 * What a `"use server"` module exports, judged at build. An async function (declared, or a
 * `const` bound to an async arrow or function expression) is callable. A value that is plainly
 * not one (a literal, an object, a class, a sync function) is refused, with the reason. What the
 * build cannot judge (`export const f = withAuth(g)`) is callable here and checked when called.
 * Types are erased and ignored. A default export is refused: an action is called by its name. So
 * is a function of another module exported again (`export { g }` of an import, `export … from`,
 * `export const g = ns.g`):
 * marking it as an action changes that module's function too, and two modules exporting it would
 * each mark it with their own id, the last one winning.
 */
export function serverExports(program: ESTree.Program): { callable: ServerExport[]; refused: string[] } {
  const locals = localVerdicts(program);
  const callable: ServerExport[] = [];
  const refused: string[] = [];
  const add = (name: string, local: string, verdict: Verdict) => {
    if (verdict === 'not') refused.push(`${name} is not an async function`);
    else if (verdict === 'imported') refused.push(`${name} ${REEXPORTED}`);
    else callable.push({ name, local });
  };
  for (const node of program.body) {
    if (node.type === 'ExportDefaultDeclaration') {
      if (node.declaration.type !== 'TSInterfaceDeclaration')
        refused.push('the default export has no name to call it by: export it by name');
    } else if (
      node.type === 'ExportAllDeclaration' ||
      (node.type === 'ExportNamedDeclaration' && node.source)
    ) {
      if (node.exportKind !== 'type')
        refused.push(`export … from ${JSON.stringify(node.source!.value)}: what it exports ${REEXPORTED}`);
    } else if (node.type === 'TSExportAssignment') {
      refused.push('export = is not an ES module export');
    } else if (node.type === 'ExportNamedDeclaration' && node.exportKind !== 'type') {
      const declaration = node.declaration;
      if (
        declaration?.type === 'VariableDeclaration' &&
        declaration.declarations.some((d) => d.id.type !== 'Identifier')
      )
        refused.push('a destructured export is not checked here: export each async function by name');
      for (const { name, verdict } of declared(declaration, locals)) add(name, name, verdict);
      for (const specifier of node.specifiers) {
        if (specifier.exportKind === 'type') continue;
        const local = nameOf(specifier.local);
        const name = nameOf(specifier.exported);
        if (name === 'default') refused.push(`${local} is exported as default: export it by name`);
        else if (!/^[A-Za-z_$][\w$]*$/.test(name))
          refused.push(`"${name}" is not a name a module can import`);
        else add(name, local, locals.get(local) ?? 'unknown');
      }
    }
  }
  return { callable, refused };
}

/** The callable exports of a `"use server"` module, or an error naming the file and every refused export. */
export function checkServerExports(program: ESTree.Program, file: string): ServerExport[] {
  const { callable, refused } = serverExports(program);
  if (refused.length > 0) {
    throw new Error(
      `${file}: only async functions can be exported from a 'use server' module (each is an action a client can call by its name):\n` +
        refused.map((reason) => `  - ${reason}`).join('\n'),
    );
  }
  return callable;
}

/** Why another module's function is refused, and what to do instead. */
const REEXPORTED =
  "is re-exported from another module: export it from a 'use server' module of its own (or export an async function here that calls it)";

/**
 * What the build knows of a binding's value: an async function, plainly not one, another module's
 * value (imported, or a name bound to an import), or unknown until run.
 */
type Verdict = 'async' | 'not' | 'imported' | 'unknown';

/** The module's top-level bindings whose values the build can judge. */
function localVerdicts(program: ESTree.Program): Map<string, Verdict> {
  const verdicts = new Map<string, Verdict>();
  for (const node of program.body) {
    if (node.type === 'ImportDeclaration' && node.importKind !== 'type') {
      for (const specifier of node.specifiers) {
        if (specifier.type !== 'ImportSpecifier' || specifier.importKind !== 'type')
          verdicts.set(specifier.local.name, 'imported');
      }
    }
    const declaration = node.type === 'ExportNamedDeclaration' ? node.declaration : node;
    for (const { name, verdict } of declared(declaration, verdicts)) verdicts.set(name, verdict);
  }
  return verdicts;
}

/**
 * The runtime bindings a declaration makes, each with what its value is; none for types.
 * `known` is what the bindings declared before it hold, for a name bound to another.
 */
function declared(
  node: ESTree.Node | null,
  known: ReadonlyMap<string, Verdict>,
): { name: string; verdict: Verdict }[] {
  if (!node || ('declare' in node && node.declare)) return [];
  switch (node.type) {
    case 'FunctionDeclaration':
      return node.id ? [{ name: node.id.name, verdict: functionVerdict(node) }] : [];
    case 'VariableDeclaration':
      return node.declarations.flatMap((d) =>
        d.id.type === 'Identifier' ? [{ name: d.id.name, verdict: valueVerdict(d.init, known) }] : [],
      );
    case 'ClassDeclaration':
    case 'TSEnumDeclaration':
      return node.id ? [{ name: node.id.name, verdict: 'not' }] : [];
    case 'TSModuleDeclaration':
      return node.id.type === 'Identifier' ? [{ name: node.id.name, verdict: 'not' }] : [];
    default:
      return [];
  }
}

function functionVerdict(fn: { async: boolean; generator: boolean }): Verdict {
  return fn.async && !fn.generator ? 'async' : 'not';
}

/**
 * An initializer's value: a function expression judged, a value that can never be a function
 * refused, another binding's name what that binding holds if it is another module's. A member of
 * another module's value (`ns.f`, `api.users.remove`) is a function that module holds too, and
 * so is a choice that may give one (`flag ? ns.f : local`, `local ?? ns.f`).
 */
function valueVerdict(init: ESTree.Expression | null, known: ReadonlyMap<string, Verdict>): Verdict {
  if (!init) return 'not';
  switch (init.type) {
    case 'Identifier':
      return known.get(init.name) === 'imported' ? 'imported' : 'unknown';
    case 'MemberExpression':
      return valueVerdict(init.object, known) === 'imported' ? 'imported' : 'unknown';
    case 'ChainExpression':
      return valueVerdict(init.expression as ESTree.Expression, known);
    // A value that is one of several: another module's if any of them may be.
    case 'ConditionalExpression':
      return eitherVerdict([init.consequent, init.alternate].map((option) => valueVerdict(option, known)));
    case 'LogicalExpression':
      // `x && f` gives `x` only when it is falsy, and no falsy value is a function.
      return eitherVerdict([
        init.operator === '&&' ? 'not' : valueVerdict(init.left, known),
        valueVerdict(init.right, known),
      ]);
    case 'SequenceExpression':
      return valueVerdict(init.expressions.at(-1)!, known);
    // `x = ns.f` is the value assigned (`x ||= ns.f` may be); `await ns.f` is the function itself.
    case 'AssignmentExpression': {
      const assigned = valueVerdict(init.right, known);
      return init.operator === '=' || assigned === 'imported' ? assigned : 'unknown';
    }
    case 'AwaitExpression':
      return valueVerdict(init.argument, known) === 'imported' ? 'imported' : 'unknown';
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
      return functionVerdict(init);
    case 'ParenthesizedExpression':
    case 'TSAsExpression':
    case 'TSSatisfiesExpression':
    case 'TSNonNullExpression':
    case 'TSTypeAssertion':
    case 'TSInstantiationExpression':
      return valueVerdict(init.expression, known);
    case 'Literal':
    case 'TemplateLiteral':
    case 'ObjectExpression':
    case 'ArrayExpression':
    case 'ClassExpression':
    case 'UnaryExpression':
    case 'BinaryExpression':
    case 'UpdateExpression':
      return 'not';
    default:
      return 'unknown';
  }
}

/** The verdict of a value that is one of several: the same for all, else unknown, but another module's wins. */
function eitherVerdict(options: readonly Verdict[]): Verdict {
  const verdicts = new Set(options);
  if (verdicts.has('imported')) return 'imported';
  return verdicts.size === 1 ? options[0]! : 'unknown';
}

function nameOf(name: ESTree.ModuleExportName): string {
  return name.type === 'Literal' ? name.value : name.name;
}

/**
 * What the browser gets for the module: a reference per export, and nothing of its code. Each is
 * exported from a list, which takes any name an export list can give (`export { remove as
 * delete }`); a declaration could not be named `delete`, nor `createServerReference`.
 */
export function clientModule(
  exports: readonly ServerExport[],
  relativeFile: string,
  runtime: string,
): string {
  const references = exports.map(
    ({ name }, i) =>
      `const reference${i} = createServerReference(${JSON.stringify(actionId(relativeFile, name))});`,
  );
  const list = exports.map(({ name }, i) => `reference${i} as ${name}`).join(', ');
  return [
    `import { createServerReference } from ${JSON.stringify(runtime)};`,
    ...references,
    `export { ${list} };`,
  ].join('\n');
}

/** What the server gets: the module as written, each export marked for progressive forms. */
export function serverModule(
  code: string,
  exports: readonly ServerExport[],
  relativeFile: string,
  runtime: string,
): string {
  const marks = exports.map(
    ({ name, local }) => `__syRegister(${local}, ${JSON.stringify(actionId(relativeFile, name))});`,
  );
  return [
    code,
    `import { registerServerReference as __syRegister } from ${JSON.stringify(runtime)};`,
    ...marks,
  ].join('\n');
}
