/**
 * What adopting Switchyard costs a new app, measured as a user meets it: the packages that
 * installing the packed tarball (with its React peers) brings into a fresh folder, whether any of
 * them runs an install script (compiles from source) or is one of the demo's own dependencies,
 * and the time from `switchyard init` to the first hydrated page of its dev server (the
 * `npm install` from npm's cache in between included, and shown on its own).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

export interface AdoptionFigures {
  /** Packages in a fresh app's node_modules after installing the tarball and its peers. */
  packages: number;
  /** Those of them with an install script: each would run (often compile) on install. */
  withInstallScripts: string[];
  /** Those of them only the demo needs: none should come with the framework. */
  demoOnly: string[];
  installMs: number;
  initToHydratedMs: number;
}

const DEMO_ONLY = ['better-sqlite3', 'pg', 'marked', 'tsx'];
const NPM_INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund'];

export async function measureAdoption(
  repo: string,
  work: string,
  browser: Browser,
): Promise<AdoptionFigures> {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  execFileSync('npm', ['pack', '--pack-destination', work], { cwd: repo, stdio: 'ignore' });
  const tarball = join(
    work,
    readdirSync(work).find((name) => name.endsWith('.tgz'))!,
  );

  // The package alone, with its peers, as `npm install switchyard-react react react-dom` gives it.
  const bare = join(work, 'bare');
  mkdirSync(bare);
  writeFileSync(join(bare, 'package.json'), '{"private":true}');
  execFileSync('npm', [...NPM_INSTALL, tarball, 'react', 'react-dom'], { cwd: bare, stdio: 'ignore' });
  const lock = JSON.parse(readFileSync(join(bare, 'node_modules/.package-lock.json'), 'utf8')) as {
    packages: Record<string, { hasInstallScript?: boolean }>;
  };
  const installed = Object.entries(lock.packages).map(([path, info]) => ({
    name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length),
    scripted: info.hasInstallScript === true,
  }));

  // From init to a hydrated page: what a new user waits through.
  const started = performance.now();
  execFileSync(process.execPath, [join(bare, 'node_modules/.bin/switchyard'), 'init', 'app'], {
    cwd: work,
    stdio: 'ignore',
  });
  const app = join(work, 'app');
  const installStarted = performance.now();
  execFileSync('npm', [...NPM_INSTALL, tarball], { cwd: app, stdio: 'ignore' });
  const installMs = performance.now() - installStarted;
  const dev = spawn(process.execPath, [join(app, 'node_modules/.bin/switchyard'), 'dev', '--port', '0'], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const origin = await new Promise<string>((resolve, reject) => {
      let out = '';
      dev.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const port = /dev server on http:\/\/localhost:(\d+)/.exec(out)?.[1];
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      dev.once('exit', (code) => reject(new Error(`switchyard dev exited with ${code}`)));
    });
    const page = await browser.newPage();
    await page.goto(origin);
    await page.waitForFunction(() => document.documentElement.dataset.router === 'ready', null, {
      timeout: 120_000,
    });
    const initToHydratedMs = performance.now() - started;
    await page.close();
    return {
      packages: installed.length,
      withInstallScripts: installed.filter((p) => p.scripted).map((p) => p.name),
      demoOnly: installed.filter((p) => DEMO_ONLY.includes(p.name)).map((p) => p.name),
      installMs,
      initToHydratedMs,
    };
  } finally {
    dev.kill('SIGTERM');
  }
}
