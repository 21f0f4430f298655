/**
 * What an app's folder must have before the command runs it: React (one copy of it), a root
 * layout, and for `start` a build to find. Each is one line naming what to do, exit 1, no stack.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { buildsIn, reactProblem, rootLayoutProblem } from '../../bin/project-checks.js';

const REPO = resolve(import.meta.dirname, '../..');
const BIN = join(REPO, 'bin/switchyard.js');
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A project folder with the given files; `inside` puts it in the repository (React resolves). */
function project(files: Record<string, string>, { inside = false } = {}): string {
  const parent = inside ? join(REPO, '.switchyard') : tmpdir();
  mkdirSync(parent, { recursive: true });
  const root = realpathSync(mkdtempSync(join(parent, 'switchyard-project-')));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const fakePackage = (name: string) => ({
  [`node_modules/${name}/package.json`]: JSON.stringify({ name, version: '19.3.1', main: 'index.js' }),
  [`node_modules/${name}/index.js`]: '',
});

describe('React', () => {
  test('missing from the app: says which, and the install command', () => {
    const root = project({ 'package.json': '{}' });
    expect(reactProblem({ root, frameworkDir: REPO })).toBe(
      `react and react-dom are not installed in ${root}. Install them with: npm install react react-dom`,
    );
    const half = project({ 'package.json': '{}', ...fakePackage('react') });
    expect(reactProblem({ root: half, frameworkDir: REPO })).toBe(
      `react-dom is not installed in ${half}. Install it with: npm install react-dom`,
    );
  });

  test('two copies, the app’s and another the framework would load: both paths named', () => {
    const root = project({ 'package.json': '{}', ...fakePackage('react'), ...fakePackage('react-dom') });
    const problem = reactProblem({ root, frameworkDir: REPO });
    expect(problem).toContain(`Two copies of React: the app's at ${join(root, 'node_modules/react')}`);
    expect(problem).toContain(`another at ${join(REPO, 'node_modules/react')}`);
  });

  test('one copy shared by the app and the framework is no problem', () => {
    expect(reactProblem({ root: REPO, frameworkDir: REPO })).toBeUndefined();
  });
});

test('a root layout: any of the layout file names will do', () => {
  const root = project({ 'app/page.tsx': '' });
  expect(rootLayoutProblem(join(root, 'app'), root)).toBe(
    'app/layout.tsx is missing: the root layout renders <html> and <body> around every page. Create it (npx switchyard init <dir> writes one to copy).',
  );
  writeFileSync(join(root, 'app/layout.jsx'), '');
  expect(rootLayoutProblem(join(root, 'app'), root)).toBeUndefined();
});

test('the builds start can serve: dist and dist-* folders with a server bundle', () => {
  const root = project({
    'dist-b/server/production.js': '',
    'dist/server/production.js': '',
    'dist-a/server/production.js': '',
    'dist-empty/client/x.js': '',
    'distant/server/production.js': '',
  });
  expect(buildsIn(root)).toEqual(['dist', 'dist-a', 'dist-b']);
});

describe('the command, run in such a folder', { timeout: 60_000 }, () => {
  const run = (cwd: string, ...args: string[]) =>
    spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 50_000 });

  test('no React: one line, exit 1, no stack', () => {
    const result = run(project({ 'package.json': '{}', 'app/layout.tsx': '' }), 'dev');
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(
      /^react and react-dom are not installed in .*npm install react react-dom$/,
    );
  });

  test('no root layout: one line, exit 1, before Vite starts', () => {
    const result = run(project({ 'package.json': '{}', 'app/page.tsx': '' }, { inside: true }), 'build');
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe(
      'app/layout.tsx is missing: the root layout renders <html> and <body> around every page. Create it (npx switchyard init <dir> writes one to copy).',
    );
  });

  test('start with no --out: the only dist-* build, or a list to choose from', () => {
    // A bundle that only says it ran: which build start picked is what is tested.
    const root = project(
      { 'package.json': '{}', 'dist-x/server/production.js': 'throw new Error("the bundle of dist-x ran");' },
      { inside: true },
    );
    const found = run(root, 'start', '--port', '0');
    expect(found.stdout).toContain('Serving the build in dist-x.');
    expect(found.stderr).toContain('the bundle of dist-x ran');
    mkdirSync(join(root, 'dist-y/server'), { recursive: true });
    writeFileSync(join(root, 'dist-y/server/production.js'), '');
    const two = run(root, 'start', '--port', '0');
    expect(two.status).toBe(1);
    expect(two.stderr.trim()).toBe(
      `No production build in ${join(root, 'dist')}. Builds here: dist-x, dist-y; pick one with \`switchyard start --out <dir>\`.`,
    );
  });

  test('--version prints the package version', () => {
    const result = run(REPO, '--version');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version}\n`);
  });
});
