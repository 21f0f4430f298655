/**
 * Starts a real production server (`switchyard start`) on a free port in a child process, and
 * a page in Chromium that records console messages, page errors and requests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DevtoolsApi } from '../../client/devtools/api';
import type { DevtoolsSnapshot } from '../../client/router-types';
import { sessionCookie, TEST_SECRET } from '../helpers/session-cookie';
import { hasChromium, launchChromium } from './chromium';
import { BUILDS } from './global-setup';

export const skipWithoutChromium = !hasChromium();

export const isDocument = (r: Request) => r.resourceType() === 'document';
export const isPageData = (r: Request) => new URL(r.url()).searchParams.has('_sy');

/** The built chunk of a demo route file (or, with `root`, any module), from the client manifest. */
export function chunkOf(file: string, root = 'src/app/'): string {
  const manifest = JSON.parse(
    readFileSync(join(BUILDS.demo.out, 'client/.vite/manifest.json'), 'utf8'),
  ) as Record<string, { file: string }>;
  return manifest[root + file]!.file;
}

export interface RunningServer {
  url: string;
  logs: string[];
  /** Where this server's demo database lives: its own, unless one was passed in. */
  dataDir: string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface ServerOptions {
  /** Extra environment for the server process; its secret is `TEST_SECRET` unless this sets one. */
  env?: NodeJS.ProcessEnv;
  /** A data directory to reuse (a restart); by default each server gets a fresh one. */
  dataDir?: string;
  /** The port to listen on; by default a free one the server picks. */
  port?: number;
}

export function startServer(build: keyof typeof BUILDS, options: ServerOptions = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'switchyard-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['bin/switchyard.js', 'start', '--port', String(options.port ?? 0), '--out', BUILDS[build].out],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SWITCHYARD_DATA_DIR: dataDir, SWITCHYARD_SECRET: TEST_SECRET, ...options.env },
    },
  );
  const logs: string[] = [];
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      logs.push(chunk.toString());
      const port = /serving http:\/\/localhost:(\d+)/.exec(logs.join(''))?.[1];
      if (port) {
        child.stdout!.off('data', onData);
        child.stdout!.on('data', (c: Buffer) => logs.push(c.toString()));
        resolve({
          url: `http://127.0.0.1:${port}`,
          logs,
          dataDir,
          stop: (signal = 'SIGTERM') =>
            new Promise((done) => {
              child.once('exit', () => done());
              child.kill(signal);
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => logs.push(c.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${logs.join('')}`)));
  });
}

export interface RecordedPage {
  page: Page;
  console: string[];
  errors: string[];
  requests: string[];
}

export async function openPage(
  browser: Browser,
  options: { javaScriptEnabled?: boolean; saveData?: boolean; effectiveType?: string } = {},
): Promise<RecordedPage> {
  const context = await browser.newContext({ javaScriptEnabled: options.javaScriptEnabled ?? true });
  // What Chromium reports on a connection with the Save-Data preference on, or a slow one.
  if (options.saveData || options.effectiveType) {
    const connection = { saveData: options.saveData ?? false, effectiveType: options.effectiveType ?? '4g' };
    await context.addInitScript(
      (value) => Object.defineProperty(navigator, 'connection', { value }),
      connection,
    );
  }
  const page = await context.newPage();
  const recorded: RecordedPage = { page, console: [], errors: [], requests: [] };
  page.on('console', (msg) => {
    // Failed loads are recorded below with their URL, which this message lacks.
    if (msg.text().startsWith('Failed to load resource')) return;
    if (msg.type() === 'error' || msg.type() === 'warning')
      recorded.console.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('response', (res) => {
    const url = new URL(res.url());
    // Browsers ask for a favicon on their own; a page's own requests are what we check.
    if (res.status() >= 400 && url.pathname !== '/favicon.ico') {
      recorded.console.push(`error: ${res.status()} for ${url.pathname}`);
    }
  });
  page.on('pageerror', (error) => recorded.errors.push(error.message));
  page.on('request', (req) => recorded.requests.push(`${req.resourceType()} ${req.url()}`));
  return recorded;
}

/** Hydrated, and the router's code (loaded after hydration) running: links navigate softly. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => document.documentElement.dataset.router === 'ready');
}

export { launchChromium };

export type WithDevtools = { __SWITCHYARD_DEVTOOLS__: () => Promise<DevtoolsApi> };

/**
 * The router's devtools snapshot: the prefetch cache, the queue and the budget, as the page sees
 * them. The devtools' API loads when first asked for (`window.__SWITCHYARD_DEVTOOLS__()`).
 */
export function devtoolsSnapshot(page: Page): Promise<DevtoolsSnapshot & { clockOffset: number }> {
  return page.evaluate(async () =>
    (await (window as unknown as WithDevtools).__SWITCHYARD_DEVTOOLS__()).snapshot(),
  );
}

/**
 * `router.refresh()` through the devtools, as a developer tries it from the console: no page of
 * the demo carries a refresh button. It does not wait for the refresh to finish.
 */
export async function refreshFromDevtools(page: Page): Promise<void> {
  await page.evaluate(
    async () => void (await (window as unknown as WithDevtools).__SWITCHYARD_DEVTOOLS__()).refresh(),
  );
}

/** Waits (up to `timeout`) until no prefetch is running or waiting; gives the snapshot then. */
export async function prefetchQueueIdle(page: Page, timeout: number): Promise<DevtoolsSnapshot> {
  await expect
    .poll(
      async () => {
        const { queue } = await devtoolsSnapshot(page);
        return queue.running.length + queue.waiting.length;
      },
      { timeout },
    )
    .toBe(0);
  return devtoolsSnapshot(page);
}

/** Signs the page's browser in to the demo at `url` as `handle`, with the session cookie the server signs. */
export async function signInAs(page: Page, url: string, handle: string): Promise<void> {
  const cookie = sessionCookie(handle);
  const equals = cookie.indexOf('=');
  const [name, value] = [cookie.slice(0, equals), cookie.slice(equals + 1)];
  // For the whole site, as the server sets it: a cookie for a page's URL would stop at its folder.
  await page.context().addCookies([{ name, value, domain: new URL(url).hostname, path: '/' }]);
}

/**
 * A page at `url`, hydrated when scripts run, whose `requests` list starts empty after the load:
 * what a test then does is all it holds. With `signedInAs`, the demo's user it is signed in as.
 */
export async function openAt(
  browser: Browser,
  url: string,
  options: { javaScriptEnabled?: boolean; saveData?: boolean; signedInAs?: string } = {},
): Promise<Omit<RecordedPage, 'requests'> & { requests: Request[] }> {
  const recorded = await openPage(browser, options);
  if (options.signedInAs) await signInAs(recorded.page, url, options.signedInAs);
  const requests: Request[] = [];
  recorded.page.on('request', (r) => requests.push(r));
  await recorded.page.goto(url);
  if (options.javaScriptEnabled ?? true) await waitForHydration(recorded.page);
  requests.length = 0;
  return { ...recorded, requests };
}

/**
 * A server of `build` and a Chromium for the tests of one file: started before them (and handed
 * to `started`), stopped after them.
 */
export function serveWithChromium(
  build: keyof typeof BUILDS,
  started: (server: RunningServer, browser: Browser) => void,
  options?: ServerOptions,
): void {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(build, options), launchChromium()]);
    started(server, browser);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), browser?.close()]);
  });
}
