/**
 * `switchyard dev` as an app author meets it, in a child process on a small app of its own:
 * server errors show their message and stack, a 'use server' module or a route handler added
 * (or a route handler changed) while the server runs works without a restart, a 'use server'
 * module that exports a value is reported as Vite reports a plugin's error, public files are
 * served before any page, and a public file that hides a page stops the server from starting. A
 * page added while it runs is in the route types at once: a link to it type-checks without a
 * restart.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { routeTypesPath, TYPES_DIR } from '../../server/typegen';
import { ACTION_HEADER, actionUrl } from '../../shared/actions';

// Inside the repository, as `--app` requires; `.switchyard/` is ignored by git.
const root = join('.switchyard', `dev-test-${process.pid}`);
const routeTypes = routeTypesPath(process.cwd(), resolve(root, 'app'));
const files: Record<string, string> = {
  'app/layout.tsx': `import './styles.css';
export default function Root({ children }: { children: React.ReactNode }) {
  return <html lang="en"><body>{children}</body></html>;
}`,
  'app/styles.css': `h1 { color: rgb(1, 2, 3); }`,
  'app/page.tsx': `export default function Home() {
  return <h1>home</h1>;
}`,
  'app/boom/page.server.ts': `export function load(): never {
  throw new Error('dev boom from the loader');
}`,
  'app/boom/page.tsx': `export default function Boom() {
  return <h1>never</h1>;
}`,
  'app/api/[id]/route.ts': `export function GET(_request: Request, { params }: { params: { id: string } }) {
  return Response.json({ id: params.id, version: 1 });
}`,
  'public/robots.txt': 'User-agent: *\nAllow: /\n',
  'app/notes.txt/page.tsx': `export default function Notes() {
  return <h1>notes</h1>;
}`,
};

describe('switchyard dev', { timeout: 60_000 }, () => {
  let child: ChildProcess;
  let base: string;
  // Everything the server printed.
  let out = '';
  beforeAll(async () => {
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    child = spawn(process.execPath, ['bin/switchyard.js', 'dev', '--app', join(root, 'app'), '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    base = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const port = /dev server on http:\/\/localhost:(\d+)/.exec(out)?.[1];
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.once('exit', (code) => reject(new Error(`dev exited with ${code}: ${out}`)));
    });
  }, 60_000);
  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(root, { recursive: true, force: true });
    rmSync(join(TYPES_DIR, root), { recursive: true, force: true });
  });

  test("a loader's error shows its message and its source-mapped stack in the browser", async () => {
    const res = await fetch(`${base}/boom`);
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain('Error: dev boom from the loader');
    // The line in the author's own TypeScript file.
    expect(html).toMatch(/boom\/page\.server\.ts:2:\d+/);
    expect(html).toContain('Digest: <code>');
  });

  test('the document links the CSS its route files import: the first paint is styled', async () => {
    const html = await (await fetch(`${base}/`)).text();
    const href = /<link rel="stylesheet" href="([^"]+styles\.css\?direct)"/.exec(html)?.[1];
    expect(href).toBeDefined();
    const css = await fetch(base + href!);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    expect(await css.text()).toContain('rgb(1, 2, 3)');
  });

  test('a public file is served at the root path, not by a page; a missing one is the 404 page', async () => {
    const res = await fetch(`${base}/robots.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe('User-agent: *\nAllow: /\n');
    const missing = await fetch(`${base}/nope.txt`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
  });

  // Before the public file that conflicts below: while a conflict stands, the route tree is kept.
  test('a route handler answers; an edit to it, and a new one, take effect without a restart', async () => {
    const json = async (path: string) => {
      const res = await fetch(base + path);
      return res.status === 200 ? ((await res.json()) as unknown) : res.status;
    };
    expect(await json('/api/7')).toEqual({ id: '7', version: 1 });
    writeFileSync(
      join(root, 'app', 'api', '[id]', 'route.ts'),
      `export function GET() {\n  return Response.json({ version: 2 });\n}\n`,
    );
    await expect.poll(() => json('/api/7'), { timeout: 30_000, interval: 200 }).toEqual({ version: 2 });
    mkdirSync(join(root, 'app', 'ping'));
    writeFileSync(join(root, 'app', 'ping', 'route.ts'), `export const GET = () => new Response('pong');\n`);
    await expect
      .poll(async () => (await fetch(`${base}/ping`)).text(), { timeout: 30_000, interval: 200 })
      .toBe('pong');
  });

  test('a page added while the server runs is in the route types: a link to it type-checks', async () => {
    const types = () => readFileSync(routeTypes, 'utf8');
    expect(types()).toContain('"/": { params: {}; path: `/` };');
    expect(types()).not.toContain('/added');
    mkdirSync(join(root, 'app', 'added', '[slug]'), { recursive: true });
    writeFileSync(
      join(root, 'app', 'added', '[slug]', 'page.tsx'),
      `export default function Added() {\n  return <h1>added</h1>;\n}\n`,
    );
    await expect
      .poll(types, { timeout: 30_000, interval: 200 })
      .toContain('"/added/[slug]": { params: { "slug": string }; path: `/added/${string}` };');

    // One compile of a file that links to the new page, and (so that a Register left empty, where
    // any string passes, fails too) to a page that does not exist.
    const check = join(root, 'check');
    mkdirSync(check);
    writeFileSync(
      join(check, 'links.tsx'),
      `import { Link } from 'switchyard-react';
export const added = <Link href="/added/first?x=1">new</Link>;
// @ts-expect-error no route answers it
export const missing = <Link href="/missing">missing</Link>;
`,
    );
    writeFileSync(
      join(check, 'tsconfig.json'),
      JSON.stringify({
        extends: resolve('client/tsconfig.json'),
        include: ['links.tsx', routeTypes],
      }),
    );
    const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', check], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 150_000);

  test('a public file added while the server runs that hides a page is reported, naming both', async () => {
    writeFileSync(join(root, 'public', 'notes.txt'), 'notes\n');
    await expect
      .poll(() => out, { timeout: 30_000, interval: 200 })
      .toContain(
        `${root}/public/notes.txt conflicts with ${root}/app/notes.txt/page.tsx: both answer /notes.txt.`,
      );
  });

  test("a 'use server' module added while the server runs is served without a restart", async () => {
    writeFileSync(
      // In the app directory: an app's actions are the modules it holds or imports.
      join(root, 'app', 'actions.ts'),
      `'use server';\nexport async function hello(name: string) {\n  return 'hello ' + name;\n}\n`,
    );
    const call = () =>
      fetch(base + actionUrl(actionId('app/actions.ts', 'hello')), {
        method: 'POST',
        headers: { origin: base, [ACTION_HEADER]: '1', 'content-type': 'application/json' },
        body: JSON.stringify({ args: ['dev'] }),
      });
    // The file watcher tells the server about the new file when it sees it.
    await expect.poll(async () => (await call()).status, { timeout: 30_000, interval: 200 }).toBe(200);
    expect(await (await call()).json()).toEqual({ value: 'hello dev', revalidated: [] });
  });

  test("a 'use server' module that exports a value is a plugin error, shown as Vite shows one, and the server goes on", async () => {
    const file = join(root, 'app', 'limits.ts');
    const action = `export async function more(count: number) {\n  return count + 1;\n}\n`;
    writeFileSync(file, `'use server';\nexport const LIMIT = 5;\n${action}`);
    // What the browser asks for when a component imports the module. Vite prints the error and
    // sends it to the browser's overlay (one step, its logError), then hands the request on.
    expect((await fetch(`${base}/${root}/app/limits.ts`)).ok).toBe(false);
    await expect
      // Vite colours its log where it may (in CI, always): the text without its escapes.
      .poll(() => stripVTControlCharacters(out), { timeout: 30_000, interval: 200 })
      .toContain(
        `[vite] Internal server error: ${root}/app/limits.ts: only async functions can be exported from a 'use server' module (each is an action a client can call by its name):\n  - LIMIT is not an async function\n  Plugin: switchyard`,
      );
    expect((await fetch(`${base}/`)).status).toBe(200);
    writeFileSync(file, `'use server';\n${action}`);
    await expect
      .poll(async () => (await fetch(`${base}/${root}/app/limits.ts`)).status, {
        timeout: 30_000,
        interval: 200,
      })
      .toBe(200);
  });
});

describe('switchyard dev with a public file that hides a page', () => {
  test('does not start, and names both files without a stack', async () => {
    const child = spawn(
      process.execPath,
      ['bin/switchyard.js', 'dev', '--app', 'test/fixtures/public-conflict/app', '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    // The exit code, or null if the server started after all (and is stopped here).
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', resolve);
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('dev server on')) resolve(null);
      });
    });
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    expect(code).toBe(1);
    expect(out).toContain(
      'test/fixtures/public-conflict/public/about conflicts with test/fixtures/public-conflict/app/about/page.tsx: both answer /about. Rename or remove one.',
    );
    expect(out).not.toMatch(/^\s+at /m);
  }, 60_000);
});
