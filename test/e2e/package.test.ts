/**
 * Switchyard as a new user meets it: `npm pack` at the root, the tarball installed into a
 * folder outside the repository, an app written there by `switchyard init`, then the app's
 * type check (TypeScript as pinned, and the newest major), its own tests, a production build
 * served and clicked through in Chromium, and the dev server with an edit that shows in the open
 * page without a reload. npm installs from its cache where it can (the gate's own install
 * filled it).
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isDocument, launchChromium, openAt, skipWithoutChromium } from './harness';

const REPO = resolve(import.meta.dirname, '../..');
/** The newest TypeScript major, which `npm install typescript` gives a new user. */
const NEWEST_TYPESCRIPT = 'typescript@7';
/** The demo's own dependencies: none may come with the package. */
const DEMO_ONLY = ['better-sqlite3', 'pg', 'marked', 'tsx'];

/** The environment of the commands run in the app: this test runner's own settings left out. */
function appEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('VITEST') && key !== 'NODE_ENV' && key !== 'TEST') env[key] = value;
  }
  return env;
}

function run(cwd: string, command: string, args: string[], timeoutMs = 240_000): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: appEnv(), encoding: 'utf8', timeout: timeoutMs });
}

function mustRun(cwd: string, command: string, args: string[]): string {
  const result = run(cwd, command, args);
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

const install = (cwd: string, ...specs: string[]) =>
  run(cwd, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...specs]);

/** Starts `switchyard <command>` in the app; resolves with the origin it serves. */
function startSwitchyard(app: string, args: string[]): { child: ChildProcess; origin: Promise<string> } {
  const child = spawn(process.execPath, [join(app, 'node_modules/.bin/switchyard'), ...args], {
    cwd: app,
    env: appEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const origin = new Promise<string>((resolvePort, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const port = /(?:serving|dev server on) http:\/\/[^:]+:(\d+)/.exec(out)?.[1];
      if (port) resolvePort(`http://127.0.0.1:${port}`);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`switchyard ${args[0]} exited with ${code}:\n${out}`)));
  });
  return { child, origin };
}

describe.skipIf(skipWithoutChromium)('the packed package in an app of its own', { timeout: 240_000 }, () => {
  let work = '';
  let tarball = '';
  let app = '';
  let installOutput = '';
  let browser: Browser | undefined;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    work = realpathSync(mkdtempSync(join(tmpdir(), 'switchyard-package-')));
    // `npm pack` runs `prepack`, which compiles lib/.
    mustRun(REPO, 'npm', ['pack', '--pack-destination', work]);
    tarball = join(
      work,
      readdirSync(work).find((name) => name.endsWith('.tgz'))!,
    );
    // `switchyard init` as the package runs it: from the tarball's files, with no dependency.
    mkdirSync(join(work, 'unpacked'));
    mustRun(work, 'tar', ['-xzf', tarball, '-C', 'unpacked']);
    mustRun(work, process.execPath, [join(work, 'unpacked/package/bin/switchyard.js'), 'init', 'my-app']);
    app = join(work, 'my-app');
    const installed = install(app, tarball);
    installOutput = installed.stdout + installed.stderr;
    if (installed.status !== 0) throw new Error(`npm install failed:\n${installOutput}`);
    browser = await launchChromium();
  }, 600_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGTERM');
    await browser?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('the tarball holds the framework only, with React as a peer and none of the demo', () => {
    const files = mustRun(work, 'tar', ['-tzf', tarball]).trim().split('\n');
    for (const file of files) {
      expect(file).toMatch(
        /^package\/(bin\/|lib\/(client|server|shared)\/|README\.md$|LICENSE$|package\.json$)/,
      );
      // Compiled: TypeScript only as declarations, but in the app that init writes.
      if (!file.startsWith('package/bin/template/')) expect(file).not.toMatch(/(?<!\.d)\.tsx?$|\.d\.tsx$/);
    }
    for (const entry of ['client/index', 'server/index', 'server/testing/index']) {
      expect(files).toContain(`package/lib/${entry}.js`);
      expect(files).toContain(`package/lib/${entry}.d.ts`);
    }
    expect(files).toContain('package/bin/switchyard.js');
    expect(files.some((file) => file.startsWith('package/bin/template/app/'))).toBe(true);

    const manifest = JSON.parse(mustRun(work, 'tar', ['-xzOf', tarball, 'package/package.json'])) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      scripts: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      exports: Record<string, unknown>;
    };
    // Vitest only for the testing kit, which an app may leave unused.
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual(['react', 'react-dom', 'vitest']);
    expect(manifest.peerDependenciesMeta).toEqual({ vitest: { optional: true } });
    for (const name of [...DEMO_ONLY, 'react', 'react-dom'])
      expect(manifest.dependencies).not.toHaveProperty(name);
    for (const hook of ['preinstall', 'install', 'postinstall'])
      expect(manifest.scripts).not.toHaveProperty(hook);
    for (const entry of ['.', './server', './testing']) {
      expect(manifest.exports[entry]).toMatchObject({ types: expect.stringMatching(/\.d\.ts$/) });
    }
  });

  test('installing it compiles nothing, prints no warning and brings none of the demo', () => {
    expect(installOutput).not.toMatch(/npm warn/i);
    // What npm installed, by the paths it recorded.
    const lock = JSON.parse(readFileSync(join(app, 'node_modules/.package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const installed = Object.entries(lock.packages).map(([path, info]) => ({
      name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
      scripted: info.hasInstallScript === true,
    }));
    expect(installed.map((p) => p.name)).toContain('switchyard-react');
    expect(installed.filter((p) => DEMO_ONLY.includes(p.name))).toEqual([]);
    expect(installed.filter((p) => p.scripted)).toEqual([]);
  });

  test('its types check strictly with skipLibCheck off; a misspelled Link prop or URL fails them', () => {
    const tsconfig = JSON.parse(readFileSync(join(app, 'tsconfig.json'), 'utf8')) as {
      compilerOptions: Record<string, unknown>;
    };
    expect(tsconfig.compilerOptions).toMatchObject({ strict: true, skipLibCheck: false });
    mustRun(app, 'npm', ['run', 'typecheck']);
    // Written by the typecheck script itself: the template's own links are checked against it.
    expect(readFileSync(join(app, '.switchyard/types/app/routes.d.ts'), 'utf8')).toContain('"/items/[id]"');

    const planted = join(app, 'app/planted-error.tsx');
    writeFileSync(
      planted,
      [
        "import { Link } from 'switchyard-react';",
        'export const Typo = () => <Link hreff="/">home</Link>;',
        'export const Route = () => <Link href="/itemz/1">item</Link>;',
        '',
      ].join('\n'),
    );
    try {
      const failed = run(app, 'npm', ['run', 'typecheck']);
      expect(failed.status).not.toBe(0);
      expect(failed.stdout).toMatch(/planted-error\.tsx\(2,.*error TS2322.*'hreff'/s);
      expect(failed.stdout).toMatch(
        /planted-error\.tsx\(3,.*error TS2322: Type '"\/itemz\/1"' is not assignable/,
      );
    } finally {
      rmSync(planted);
    }
  });

  test("its exports' types resolve under nodenext as under bundler", () => {
    const dir = join(app, 'nodenext-check');
    mkdirSync(dir);
    try {
      writeFileSync(
        join(dir, 'check.ts'),
        [
          "import { Link, notFound, type PageProps } from 'switchyard-react';",
          "import { createApp, revalidatePath } from 'switchyard-react/server';",
          "import { createTestApp } from 'switchyard-react/testing';",
          'export const used = [Link, notFound, createApp, revalidatePath, createTestApp];',
          "export type Props = PageProps<{ id: string }>['params']['id'];",
          '',
        ].join('\n'),
      );
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'ES2023',
            lib: ['ES2023', 'DOM'],
            types: ['node'],
            jsx: 'react-jsx',
            strict: true,
            skipLibCheck: false,
            noEmit: true,
          },
          files: ['check.ts'],
        }),
      );
      const checked = run(app, process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', dir]);
      expect(checked.stdout + checked.stderr).toBe('');
      expect(checked.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('its types check with the newest TypeScript too', () => {
    const newest = join(work, 'newest-typescript');
    mkdirSync(newest);
    writeFileSync(join(newest, 'package.json'), '{"private":true}');
    const installed = install(newest, NEWEST_TYPESCRIPT);
    expect(installed.status, installed.stderr).toBe(0);
    const checked = run(app, process.execPath, [join(newest, 'node_modules/typescript/bin/tsc'), '--noEmit']);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });

  test("the app's own tests pass", () => {
    const result = run(app, 'npm', ['test']);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    // The example test of its routes, on switchyard-react/testing as installed, ran.
    expect(stripVTControlCharacters(result.stdout)).toMatch(/test\/app\.test\.ts \(3 tests\)/);
  });

  test('build and start: the page hydrates and a link to the dynamic route navigates softly', async () => {
    mustRun(app, process.execPath, [join(app, 'node_modules/.bin/switchyard'), 'build']);
    const server = startSwitchyard(app, ['start', '--port', '0', '--host', '127.0.0.1']);
    children.push(server.child);
    const origin = await server.origin;
    const { page, requests, errors, console: logged } = await openAt(browser!, `${origin}/`);
    const link = page.locator('a[href^="/items/"]').first();
    const href = (await link.getAttribute('href'))!;
    await link.click();
    await page.waitForURL(`${origin}${href}`);
    await expect.poll(() => page.locator('h1').textContent()).not.toBe(null);
    expect(requests.filter(isDocument)).toEqual([]);
    expect(errors).toEqual([]);
    expect(logged).toEqual([]);
    // public/ is served at the root.
    expect((await fetch(`${origin}/favicon.ico`)).status).toBe(200);
    // A missing item is the not-found page, as a browser without JavaScript gets it.
    const missing = await fetch(`${origin}/items/999`);
    expect(missing.status).toBe(404);
    const html = await missing.text();
    expect(html).toContain('<h1>Page not found</h1>');
    expect(html).not.toContain('Loading…');
  });

  test('dev: the page hydrates, and an edit shows in the open page without a reload', async () => {
    const server = startSwitchyard(app, ['dev', '--port', '0', '--host', '127.0.0.1']);
    children.push(server.child);
    const origin = await server.origin;
    const { page, errors } = await openAt(browser!, `${origin}/`);
    await page.evaluate(() => ((window as { keptAcrossEdit?: boolean }).keptAcrossEdit = true));
    // An edit as an author makes one: the heading's text, in the component as it is.
    const file = join(app, 'app/page.tsx');
    const source = readFileSync(file, 'utf8');
    expect(source).toMatch(/<h1>[^<]*<\/h1>/);
    writeFileSync(file, source.replace(/<h1>[^<]*<\/h1>/, '<h1 id="edited">Edited while open</h1>'));
    await expect.poll(() => page.locator('#edited').count(), { timeout: 60_000 }).toBe(1);
    expect(await page.evaluate(() => (window as { keptAcrossEdit?: boolean }).keptAcrossEdit)).toBe(true);
    expect(errors).toEqual([]);
  });
});
