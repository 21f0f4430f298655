/**
 * Which `"use server"` modules an app has: those in its app directory and those its files
 * import, and never one that merely sits beside it (another app, the test fixtures).
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { transformWithOxc } from 'vite';
import { expect, test } from 'vitest';
import { inlineTypeImportsKept, reachableModules } from '../../server/actions/reachable-actions';

const ROOT = resolve('.');
/** Relative specifiers the way the bundler resolves them here; anything else leads nowhere. */
const resolveImport = async (specifier: string, importer: string) => {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(importer), specifier);
  return ['', '.ts', '.tsx', '/index.ts'].map((ext) => base + ext).find((path) => existsSync(path));
};
/** Imports of inline types only as Vite's transform makes them, by the tsconfig over each file. */
const options = { resolveImport, keepsInlineTypeImports: inlineTypeImportsKept() };
const reach = async (appDir: string, root: string) =>
  (await reachableModules(resolve(appDir), resolve(root), options)).map((p) => p.slice(ROOT.length + 1));

test('the demo reaches its actions through the components its routes import', async () => {
  expect(await reach('src/app', 'src')).toEqual(['src/lib/actions.ts', 'src/lib/session-actions.ts']);
});

/** A source root in a temporary folder holding `files`: its app directory is `app/`. */
function sourceRoot(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'switchyard-reach-'));
  for (const [path, code] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), code);
  }
  return root;
}

test('what only tests beside the routes import is no action', async () => {
  const root = sourceRoot({
    'app/page.tsx': "import { like } from '../lib/actions';\nexport default () => null;",
    'app/page.test.ts': "import { wipeAll } from '../lib/seed';",
    'app/photos/page.spec.tsx': "import { reset } from '../../lib/reset';",
    'app/__tests__/helpers.ts': "import { grant } from '../../lib/grant';",
    'lib/actions.ts': "'use server';\nexport async function like() {}",
    'lib/seed.ts': "'use server';\nexport async function wipeAll() {}",
    'lib/reset.ts': "'use server';\nexport async function reset() {}",
    'lib/grant.ts': "'use server';\nexport async function grant() {}",
  });
  const found = await reachableModules(join(root, 'app'), root, options);
  expect(found).toEqual([join(root, 'lib/actions.ts')]);
});

test('an app at the root of the repository does not see the fixtures’ or the demo’s actions', async () => {
  // `--app test/fixtures/slots` has the fixtures as its source root, where basic/actions.ts lives.
  expect(await reach('test/fixtures/slots', 'test/fixtures')).toEqual([]);
  expect(await reach('test/fixtures/basic', 'test/fixtures')).toEqual(['test/fixtures/basic/actions.ts']);
  // The bench app sits at the repository's top level, beside src/ and test/.
  expect(await reach('scripts/bench/app', 'scripts/bench')).toEqual([]);
});

test('imports are what the parser reads: one in a comment, a string or a type position leads nowhere', async () => {
  const action = (name: string) => `'use server';\nexport async function ${name}() {}`;
  const root = sourceRoot({
    'app/page.tsx': [
      "// import { wipe } from '../lib/wipe';",
      "/* import { seed } from '../lib/seed'; */",
      'const help = "import { grant } from \'../lib/grant\'";',
      "const later = `await import('../lib/later')`;",
      // Text beyond ASCII before the dynamic imports: their places are counted in UTF-16, as JS does.
      "const title = 'Ünïcode — “quoted” 🎉';",
      "import type { Reset } from '../lib/reset';",
      "export type { Audit } from '../lib/audit';",
      "type Purge = typeof import('../lib/purge');",
      "import { like } from '../lib/like';",
      "export { share } from '../lib/share';",
      "export * from '../lib/star';",
      "import '../lib/side';",
      "const loaded = () => [import('../lib/dynamic'), import(`../lib/template`)];",
      'export default () => <p>{help}{later}{title}</p>;',
    ].join('\n'),
    ...Object.fromEntries(
      [
        'wipe',
        'seed',
        'grant',
        'later',
        'reset',
        'audit',
        'purge',
        'like',
        'share',
        'star',
        'side',
        'dynamic',
        'template',
      ].map((name) => [`lib/${name}.ts`, action(name)]),
    ),
  });
  const found = await reachableModules(join(root, 'app'), root, options);
  expect(found.map((path) => path.slice(root.length + 1))).toEqual(
    ['dynamic', 'like', 'share', 'side', 'star', 'template'].map((name) => `lib/${name}.ts`),
  );
});

test('an import of inline types only loads its module where the build keeps it, under verbatimModuleSyntax', async () => {
  const action = (name: string) => `'use server';\nexport async function ${name}() {}\nexport type T = 1;`;
  const page = [
    "import { type T as Like } from '../lib/like';",
    "import type { T as Reset } from '../lib/reset';",
    "import { type T as Share, share } from '../lib/share';",
    "export { type T as Audit } from '../lib/audit';",
    'export default (): [Like, Reset, Share] | typeof share => share;',
  ].join('\n');
  const files = {
    'app/page.tsx': page,
    ...Object.fromEntries(
      ['like', 'reset', 'share', 'audit'].map((name) => [`lib/${name}.ts`, action(name)]),
    ),
  };
  for (const verbatimModuleSyntax of [true, false]) {
    const root = sourceRoot({
      ...files,
      'tsconfig.json': JSON.stringify({ compilerOptions: { jsx: 'react-jsx', verbatimModuleSyntax } }),
    });
    const found = await reachableModules(join(root, 'app'), root, options);
    // What the build makes of the page: the modules it still imports.
    const { code } = await transformWithOxc(page, join(root, 'app/page.tsx'));
    const shipped = [...code.matchAll(/from "\.\.\/lib\/(\w+)"|import "\.\.\/lib\/(\w+)"/g)].map(
      ([, from, bare]) => `lib/${from ?? bare}.ts`,
    );
    expect(found.map((path) => path.slice(root.length + 1))).toEqual(
      verbatimModuleSyntax ? ['lib/like.ts', 'lib/share.ts'] : ['lib/share.ts'],
    );
    expect(shipped.sort()).toEqual(found.map((path) => path.slice(root.length + 1)));
  }
});
