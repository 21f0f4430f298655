/**
 * Real Vite builds of small fixture apps that must fail, with the files named.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { appErrorMessage } from '../../bin/cli-errors.js';
import { buildApp } from '../../server/build';
import { COMPILE_HINT } from '../../server/vite/compile-hints';

const out = mkdtempSync(join(tmpdir(), 'switchyard-build-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

function build(app: string) {
  return buildApp({ appDir: resolve('test/fixtures', app), outDir: join(out, app) });
}

// Each test runs a real Vite build: seconds on a quiet machine, many more on a busy CI runner.
const BUILD_TIMEOUT = { timeout: 120_000 };

describe('switchyard build refuses', BUILD_TIMEOUT, () => {
  test('a client component that imports a .server file, naming both', async () => {
    await expect(build('leaky')).rejects.toThrow(
      /test\/fixtures\/leaky\/page\.tsx imports the server-only module test\/fixtures\/leaky\/lib\/token\.server\.ts/,
    );
  });

  test('a client component that imports a route handler, naming both', async () => {
    await expect(build('leaky-route')).rejects.toThrow(
      /test\/fixtures\/leaky-route\/page\.tsx imports the server-only module test\/fixtures\/leaky-route\/api\/route\.ts/,
    );
  });

  test('a client component that imports a node: module', async () => {
    await expect(build('leaky-node')).rejects.toThrow(
      /test\/fixtures\/leaky-node\/page\.tsx imports "node:fs", which only runs on the server/,
    );
  });

  test('an invalid route tree, naming every offending file', async () => {
    const error = (await build('invalid').then(
      () => undefined,
      (e: unknown) => e,
    )) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(
      'different slug names at one level: photos/[id]/page.tsx, photos/[slug]/page.tsx',
    );
    expect(error.message).toContain(
      'a catch-all must end its URL, but /tags/[...path]/edit goes on past it: tags/[...path]/edit/page.tsx',
    );
    expect(error.message).toContain(
      'the folder "[..id]" has erroneous periods; write [...id] (exactly three) for a catch-all, or [id] (none) for one segment: m/[..id]/page.tsx',
    );
    expect(error.message).toContain('feed/page.tsx and feed/route.ts are in one folder');
  });

  test('a public file that a static route also answers, naming both; a dynamic route yields to it', async () => {
    const error = await build('public-conflict/app').then(
      () => undefined,
      (e: unknown) => e,
    );
    // What the CLI prints: the sentences alone, without a stack.
    const message = appErrorMessage(error);
    expect(message).toBe(
      [
        'Invalid app directory:',
        '  - test/fixtures/public-conflict/public/about conflicts with test/fixtures/public-conflict/app/about/page.tsx: both answer /about. Rename or remove one.',
        '  - test/fixtures/public-conflict/public/robots.txt conflicts with test/fixtures/public-conflict/app/(legal)/robots.txt/page.tsx: both answer /robots.txt. Rename or remove one.',
        "  - test/fixtures/public-conflict/public/assets/logo.svg is in /assets/, the build's folder of hashed files that browsers keep for a year. Move it to another folder.",
      ].join('\n'),
    );
    // public/blog/hello against blog/[slug]/page.tsx is no conflict.
  });

  test("a 'use server' module that exports a value or another module's function, naming the file and each export", async () => {
    await expect(build('bad-actions')).rejects.toThrow(
      /test\/fixtures\/bad-actions\/actions\.ts: only async functions can be exported from a 'use server' module .*\n {2}- LIMIT is not an async function\n {2}- reset is re-exported from another module/,
    );
  });

  test('a router config that does not hold together, naming the file', async () => {
    await expect(build('bad-config')).rejects.toThrow(
      'test/fixtures/bad-config/switchyard.config.json: prefetch.staleMs must be at least prefetch.freshMs',
    );
  });
});

describe('switchyard build of one app', BUILD_TIMEOUT, () => {
  test('gives its server only the actions it reaches, not those of an app beside it; marks every client chunk, and no server file, for eager compilation; leaves heads out of the client', async () => {
    // basic/actions.ts is a 'use server' module in the slots app's source root (test/fixtures).
    await build('slots');
    const scripts = (side: 'client' | 'server') =>
      readdirSync(join(out, 'slots', side), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
        .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'));
    const bundle = scripts('server').join('\n');
    expect(bundle).toMatch(/var actions = \{\s*\};/);
    expect(bundle).not.toContain('#echo');
    expect(bundle).not.toContain(COMPILE_HINT);
    const chunks = scripts('client');
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.split('\n', 1)[0]).toBe(COMPILE_HINT);
    // A route module's `head` runs on the server: the browser's chunk of it leaves it out.
    expect(bundle).toContain('over the feed');
    expect(chunks.join('\n')).toContain('modal: ');
    expect(chunks.join('\n')).not.toContain('over the feed');
  }, 60_000);
});
