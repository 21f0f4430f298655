/**
 * `switchyard init <dir>` as a user runs it, in a child process: the files it writes, the
 * `package.json` it makes from the framework's own, what it prints, and what it refuses (and
 * then leaves as it was).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { packageName } from '../../bin/init.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/switchyard.js');
const TEMPLATE = join(ROOT, 'bin/template');
const framework = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const APP_FILES = [
  '.gitignore',
  'README.md',
  'app/items/[id]/loading.tsx',
  'app/items/[id]/page.server.ts',
  'app/items/[id]/page.tsx',
  'app/layout.tsx',
  'app/not-found.tsx',
  'app/page.server.ts',
  'app/page.tsx',
  'app/styles.css',
  'lib/actions.ts',
  'lib/items.test.ts',
  'lib/items.ts',
  'lib/note-form.tsx',
  'package.json',
  'public/favicon.ico',
  'public/robots.txt',
  'test/app.test.ts',
  'tsconfig.json',
  'vitest.config.ts',
];

const work = mkdtempSync(join(tmpdir(), 'switchyard-init-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs `switchyard init` with these arguments in `cwd`. */
function init(args: string[], cwd = work) {
  return spawnSync(process.execPath, [BIN, 'init', ...args], { cwd, encoding: 'utf8' });
}

/** Every file under `dir`, relative to it with `/`, sorted. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

// Each test starts Node: on a loaded machine that alone can take seconds.
describe('switchyard init', { timeout: 60_000 }, () => {
  test('writes the template, with .gitignore under its own name, and says what to run next', () => {
    const result = init(['My App']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const app = join(work, 'My App');
    expect(filesIn(app)).toEqual(APP_FILES);
    for (const file of APP_FILES.filter((f) => f !== '.gitignore' && f !== 'package.json')) {
      expect(readFileSync(join(app, file)), file).toEqual(readFileSync(join(TEMPLATE, file)));
    }
    expect(readFileSync(join(app, '.gitignore'), 'utf8').split('\n')).toEqual(
      expect.arrayContaining(['node_modules', 'dist', 'dist-*', '.switchyard']),
    );

    const out = result.stdout;
    expect(out).toContain(`Created an app in 'My App': ${APP_FILES.length} files.`);
    const steps = ["  cd 'My App'", '  npm install', '  npm run dev', '  npm run build && npm start'];
    const at = steps.map((step) => out.indexOf(step));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  test("package.json: scripts, and the framework's own versions (TypeScript exact)", () => {
    const app = JSON.parse(readFileSync(join(work, 'My App/package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    const typescript = framework.devDependencies.typescript!.replace(/^[~^]/, '');
    expect(typescript).toMatch(/^\d+\.\d+\.\d+$/);
    expect(app).toMatchObject({
      name: 'my-app',
      private: true,
      type: 'module',
      scripts: {
        dev: 'switchyard dev',
        build: 'switchyard build',
        start: 'switchyard start',
        typecheck: 'switchyard typegen && tsc --noEmit',
        test: 'vitest run',
      },
      dependencies: {
        'switchyard-react': `^${framework.version}`,
        react: framework.peerDependencies.react,
        'react-dom': framework.peerDependencies['react-dom'],
      },
      devDependencies: {
        typescript,
        '@types/react': framework.devDependencies['@types/react'],
        '@types/react-dom': framework.devDependencies['@types/react-dom'],
        '@types/node': framework.devDependencies['@types/node'],
        vitest: framework.devDependencies.vitest,
      },
    });
  });

  test('a folder that is not empty is refused, and nothing is written', () => {
    const dir = join(work, 'busy');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const result = init(['busy']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('The folder busy is not empty.');
    expect(result.stderr).toContain('--force');
    expect(result.stdout).toBe('');
    expect(filesIn(dir)).toEqual(['notes.txt']);
  });

  test('--force writes into it: same names replaced, other files kept', () => {
    const dir = join(work, 'busy');
    writeFileSync(join(dir, 'README.md'), 'old');
    const result = init(['busy', '--force']);
    expect(result.status).toBe(0);
    expect(filesIn(dir)).toEqual([...APP_FILES, 'notes.txt'].sort());
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(dir, 'README.md'))).toEqual(readFileSync(join(TEMPLATE, 'README.md')));
  });

  test('a folder holding only .git counts as empty; run inside it, there is no cd to print', () => {
    const dir = join(work, 'cloned');
    mkdirSync(join(dir, '.git'), { recursive: true });
    const result = init(['.'], dir);
    expect(result.status).toBe(0);
    expect(result.stdout).not.toContain('cd ');
    expect(result.stdout).toContain('  npm install');
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toMatchObject({ name: 'cloned' });
  });

  test('a file where the folder should be is refused, even with --force, and left alone', () => {
    writeFileSync(join(work, 'taken'), 'a file');
    for (const args of [['taken'], ['taken', '--force'], ['taken/app']]) {
      const result = init(args);
      expect(result.status, args.join(' ')).toBe(1);
      expect(result.stderr).toContain('taken is a file, not a folder.');
    }
    expect(readFileSync(join(work, 'taken'), 'utf8')).toBe('a file');
  });

  test('with --force, a folder in the way of a file is refused before anything is written', () => {
    const dir = join(work, 'blocked');
    mkdirSync(join(dir, 'app/page.tsx'), { recursive: true });
    const result = init(['blocked', '--force']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('blocked/app/page.tsx is a folder where the app needs a file.');
    expect(readdirSync(join(dir, 'app'))).toEqual(['page.tsx']);
    expect(readdirSync(dir)).toEqual(['app']);
  });

  test('init without a folder prints its usage and exits 2', () => {
    const result = init([]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('init takes one folder to write the app into.');
    expect(result.stderr).toContain('Usage: switchyard init <dir>');
  });
});

test.each([
  ['my-app', 'my-app'],
  ['My App', 'my-app'],
  ['Café Crème', 'cafe-creme'],
  ['.hidden', 'hidden'],
  ['_under', 'under'],
  ['app!!(v2)', 'app-v2'],
  ['a.b_c-d', 'a.b_c-d'],
  ['日本', 'app'],
  ['node_modules', 'app'],
  ['x'.repeat(300), 'x'.repeat(214)],
])('the package name of the folder %j is %j', (folder, name) => {
  expect(packageName(folder)).toBe(name);
});
