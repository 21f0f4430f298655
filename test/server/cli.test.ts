/**
 * The `switchyard` command as a user runs it, in a child process.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { routeTypesPath } from '../../server/typegen';

const bin = 'bin/switchyard.js';

// Each test starts Node, and the last one Vite: on a loaded machine that alone can take seconds.
describe('switchyard command', { timeout: 60_000 }, () => {
  test('bad arguments print the usage and exit 2', () => {
    const result = spawnSync(process.execPath, [bin, 'serve'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Unknown command "serve".');
    expect(result.stderr).toContain('Usage: switchyard <command> [options]');
  });

  test('dev on a port in use: one line, exit 1, no stack', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const child = spawn(process.execPath, [bin, 'dev', '--port', String(port), '--host', '127.0.0.1'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const code = await new Promise((done) => child.once('exit', done));
      expect(code).toBe(1);
      expect(err.trim()).toBe(
        `Port ${port} is already in use (127.0.0.1): stop what listens there, or pass --port.`,
      );
    } finally {
      taken.close();
    }
  });

  test('typegen writes the route types of the app, and refuses an invalid app directory', () => {
    // A copy of its own: the browser tests' build of the fixture, beside this test, writes the
    // fixture's route types too. Inside the repository, as `--app` requires.
    const app = join('.switchyard', `typegen-test-${process.pid}`, 'routing');
    rmSync(dirname(app), { recursive: true, force: true });
    cpSync('test/fixtures/routing', app, { recursive: true });
    const out = relative(process.cwd(), routeTypesPath(process.cwd(), resolve(app)));
    onTestFinished(() => {
      rmSync(dirname(app), { recursive: true, force: true });
      rmSync(dirname(dirname(out)), { recursive: true, force: true });
    });
    const result = spawnSync(process.execPath, [bin, 'typegen', '--app', app], {
      encoding: 'utf8',
    });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe(`Wrote ${out}`);
    expect(result.status).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain("declare module 'switchyard-react' {");
    expect(text).toContain('"/blog/[slug]": { params: { "slug": string }; path: `/blog/${string}` };');
    const again = spawnSync(process.execPath, [bin, 'typegen', '--app', app], {
      encoding: 'utf8',
    });
    expect(again.stdout.trim()).toBe(`Up to date: ${out}`);

    const invalid = spawnSync(process.execPath, [bin, 'typegen', '--app', 'test/fixtures/invalid'], {
      encoding: 'utf8',
    });
    expect(invalid.status).toBe(1);
    expect(invalid.stderr).toContain('- feed/page.tsx and feed/route.ts are in one folder');
    expect(invalid.stderr).not.toMatch(/^\s+at /m);
  });

  test('start without a build says how to make one', () => {
    const result = spawnSync(process.execPath, [bin, 'start', '--out', '.switchyard/none'], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /No production build in .*\.switchyard\/none\. Run `switchyard build` first\./,
    );
  });

  test('dev refuses an invalid app directory at start, naming each file and what is wrong', async () => {
    const child = spawn(process.execPath, [bin, 'dev', '--app', 'test/fixtures/invalid', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise((done) => child.once('exit', done));
    expect(code).not.toBe(0);
    expect(err).toContain(
      '- the folder "[..id]" has erroneous periods; write [...id] (exactly three) for a catch-all, or [id] (none) for one segment: m/[..id]/page.tsx',
    );
    expect(err).toContain(
      '- a catch-all must end its URL, but /tags/[...path]/edit goes on past it: tags/[...path]/edit/page.tsx',
    );
    expect(err).toContain('- feed/page.tsx and feed/route.ts are in one folder');
  }, 60_000);

  test('a config error prints its message alone, with no stack, and exits 1', () => {
    const result = spawnSync(
      process.execPath,
      [bin, 'build', '--app', 'test/fixtures/bad-config', '--out', join(tmpdir(), 'switchyard-never')],
      { encoding: 'utf8' },
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'test/fixtures/bad-config/switchyard.config.json: prefetch.staleMs must be at least prefetch.freshMs',
    );
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toContain('RouterConfigError');
    expect(result.stderr).not.toContain('triggerUncaughtException');
  });

  test("the stale check knows which app a build is of: another app's build is never up to date", () => {
    const out = mkdtempSync(join(tmpdir(), 'switchyard-stale-'));
    try {
      // A build of the demo, newer than every source.
      writeFileSync(join(out, 'build.json'), JSON.stringify({ appDir: 'src/app' }));
      const run = () =>
        spawnSync(
          process.execPath,
          [bin, 'build', '--if-stale', '--app', 'test/fixtures/basic', '--out', out],
          {
            encoding: 'utf8',
          },
        );
      const first = run();
      expect(first.status).toBe(0);
      expect(first.stdout).toMatch(/Built [0-9a-f]{12} into .* \(app test\/fixtures\/basic\)/);
      expect(JSON.parse(readFileSync(join(out, 'build.json'), 'utf8')).appDir).toBe('test/fixtures/basic');
      const second = run();
      expect(second.stdout).toContain(`Build of test/fixtures/basic in ${out} is up to date.`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  test('dev --app serves a fixture app from inside the repo, with HMR', async () => {
    const child = spawn(process.execPath, [bin, 'dev', '--app', 'test/fixtures/basic', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const port = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /dev server on http:\/\/localhost:(\d+)/.exec(out)?.[1];
          if (found) resolve(found);
        });
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.once('exit', (code) => reject(new Error(`dev exited with ${code}: ${out}`)));
      });
      const res = await fetch(`http://127.0.0.1:${port}/photos/5?q=dev`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('<h1>Photo <!-- -->5</h1>');
      expect(html).toContain('src="/@vite/client"');
      expect(html).toContain('src="/client/entry.tsx"');
      // App code and the renderer share one router context: the hooks work in dev as in a build.
      const hooks = await fetch(`http://127.0.0.1:${port}/lab/hooks?q=dev`);
      expect(hooks.status).toBe(200);
      expect(await hooks.text()).toContain('<p id="hooks">/lab/hooks dev</p>');
      const entry = await fetch(`http://127.0.0.1:${port}/client/entry.tsx`);
      expect(await entry.text()).toContain('hydrateRoot');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
