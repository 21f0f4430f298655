/**
 * `switchyard-react/testing`: an app's own routes, loaders and actions under test in Vitest on
 * Node, with no browser and no port. `createTestApp({ appDir })` serves the app in the test's
 * process; `app.router({ url })` is the router the browser runs, over a memory history and the
 * app's clock, which moves only when the test says (`app.clock.advance(ms)`).
 *
 * @example
 * const app = await createTestApp({ appDir: new URL('../app', import.meta.url) });
 * const router = await app.router({ url: '/' });
 * await router.prefetch('/items/1', { kind: 'full' });
 * await router.idle();
 * const before = app.requests.length;
 * await router.push('/items/1');
 * expect(app.requests.length).toBe(before); // the click used the prefetched page
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPONENT_FILES, classifyFile } from '../../shared/route-tree.js';
import { createApp, type SwitchyardApp } from '../create-app.js';
import type { SwitchyardOptions } from '../options.js';
import { scanAppDir } from '../vite/scan-app-dir.js';
import { readRouterConfig } from '../vite/vite-plugin.js';
import { findActions } from './app-actions.js';
import { createCookieJar } from './cookie-jar.js';
import { inProcessFetch, type InProcessFetch } from './in-process-fetch.js';
import { createTestClock, type TestClock } from './test-clock.js';
import { createTestRouter, type RecordedRequest, type TestRouter } from './test-router.js';

export { TEST_CLOCK_START, type TestClock } from './test-clock.js';
export type {
  PrefetchOptions,
  RecordedRequest,
  ReportedError,
  RequestKind,
  TestRouter,
} from './test-router.js';

export interface TestAppOptions {
  /** The app directory: an absolute path, or a `file:` URL such as `new URL('../app', import.meta.url)`. */
  appDir: string | URL;
  /**
   * `createApp` options besides the routes, actions and clock, which the test app sets. Server
   * actions have no rate limit unless one is given here: the test's clock moves only by hand.
   */
  server?: Omit<SwitchyardOptions, 'modules' | 'actions' | 'now'>;
}

export interface TestApp {
  /** The clock of the server and of every router of this app; it starts at `TEST_CLOCK_START`. */
  clock: Pick<TestClock, 'now' | 'advance'>;
  /** Every request a router of this app made, in order. */
  requests: RecordedRequest[];
  /** A router on `url`, its first page loaded; routers of one app share cookies, clock and requests. */
  router(options: { url: string }): Promise<TestRouter>;
  /**
   * A request straight to the server, as a script's `fetch` in the app's page makes it: with the
   * cookies the routers share (not with `credentials: 'omit'`), kept at each hop of a redirect
   * chain. Not recorded.
   */
  fetch: InProcessFetch;
  /** The Express app serving the routes, for supertest or anything else that takes a handler. */
  server: SwitchyardApp;
}

const COMPONENT_ROLES: ReadonlySet<string> = new Set(COMPONENT_FILES);

export async function createTestApp({ appDir: dir, server: options = {} }: TestAppOptions): Promise<TestApp> {
  const appDir = typeof dir === 'string' ? resolve(dir) : fileURLToPath(dir);
  const files = scanAppDir(appDir);
  const importModule = (file: string) => importFile(resolve(appDir, file));
  const actions = await findActions(appDir, importFile);
  const clock = createTestClock();
  const server = createApp({
    ...options,
    // Given as undefined, as when left out, there is no limit: the production default would
    // count calls on a clock that moves only by hand.
    actionRateLimit: options.actionRateLimit ?? false,
    modules: Object.fromEntries(files.map((file) => [file, () => importModule(file)])),
    actions: actions.modules,
    now: clock.now,
  });
  // One browser's cookies: every router of the app and `app.fetch` send and keep them.
  const cookies = createCookieJar(clock.now);
  const fetch = inProcessFetch(server, cookies);
  const requests: RecordedRequest[] = [];
  const componentFiles = files.filter((file) => COMPONENT_ROLES.has(classifyFile(file.split('/').pop()!)!));
  const config = readRouterConfig(appDir);
  return {
    clock: { now: clock.now, advance: clock.advance },
    requests,
    fetch,
    server,
    router: ({ url }) =>
      createTestRouter(
        {
          fetch,
          clock,
          requests,
          componentFiles,
          importModule,
          config,
          actionIdOf: actions.idOf,
        },
        url,
      ),
  };
}

/**
 * Imports a source file of the app. Through Vitest's transform this takes TypeScript and JSX;
 * Node alone does not, which is what happens when Vitest leaves this package to Node.
 */
async function importFile(path: string): Promise<Record<string, unknown>> {
  try {
    return (await import(/* @vite-ignore */ path)) as Record<string, unknown>;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_UNKNOWN_FILE_EXTENSION') {
      throw new Error(
        "switchyard-react/testing imports the app's files through Vitest: add `server: { deps: { inline: ['switchyard-react'] } }` to the `test` options of your Vitest config",
        { cause: error },
      );
    }
    throw error;
  }
}
