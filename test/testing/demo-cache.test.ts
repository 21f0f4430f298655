/**
 * The demo's prefetch cache with switchyard-react/testing: the demo's own routes, loaders and
 * middleware behind the router the browser runs, its clock moved by hand. What needs a browser
 * (links coming into view, resource timing, focus) stays in test/e2e/prefetch.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';

// createTestApp compiles the demo's routes through Vite: seconds on a quiet machine, more on a busy CI runner.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });
import { createTestApp, type TestApp } from 'switchyard-react/testing';
import type { Store } from '../../src/lib/store-contract';
import { TEST_SECRET } from '../helpers/session-cookie';

let dir: string;
let store: Store;
let app: TestApp;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-demo-kit-'));
  vi.stubEnv('SWITCHYARD_DATA_DIR', dir);
  // What the demo's instrumentation does at start-up.
  store = await (await import('../../src/lib/db.server')).store();
  app = await createTestApp({
    appDir: new URL('../../src/app', import.meta.url),
    server: { secret: TEST_SECRET, logger: { error: vi.fn(), info: vi.fn() } },
  });
});
afterAll(async () => {
  await store.close();
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

test('past 300 s an entry has expired: prefetched again, and the click still makes no request', async () => {
  const router = await app.router({ url: '/' });
  await router.prefetch('/docs');
  await router.idle();
  const entry = () => router.snapshot().entries.find((e) => e.key === '/docs');
  const first = entry()!;
  expect(first).toMatchObject({ status: 'fresh', kind: 'auto' });
  app.clock.advance(300_000);
  expect(entry()?.status).toBe('expired');

  const before = app.requests.length;
  expect(await router.prefetch('/docs', { trigger: 'intent' })).toEqual({ status: 'fresh' });
  expect(app.requests.slice(before)).toMatchObject([{ kind: 'prefetch', url: '/docs', mode: 'auto' }]);
  expect(entry()!.prefetchTime).toBe(first.prefetchTime + 300_000);
  await router.push('/docs');
  await router.idle();
  expect(app.requests.slice(before + 1)).toEqual([]);
});

test('a photo prefetched from the feed opens in the modal with no request', async () => {
  const router = await app.router({ url: '/' });
  await router.prefetch('/photos/3');
  await router.idle();
  // From the feed a photo opens in the modal: the cache holds that variant.
  expect(router.snapshot().entries.map((e) => e.key)).toContain('/photos/3 (feed)/@modal');
  const before = app.requests.length;
  expect(await router.push('/photos/3')).toEqual({
    status: 'committed',
    url: '/photos/3',
    redirected: false,
  });
  await router.idle();
  expect(app.requests.slice(before)).toEqual([]);
  expect(router.snapshot().entries.find((e) => e.key === '/photos/3 (feed)/@modal')?.status).toBe('reusable');
  expect(await router.html()).toMatch(/role="dialog"[\s\S]*<h1/);
});

test('a fresh auto entry with a loading state: the click commits that state, and asks for the rest once', async () => {
  const router = await app.router({ url: '/lab' });
  await router.prefetch('/lab/slow?delay=0');
  await router.idle();
  const before = app.requests.length;
  expect(await router.push('/lab/slow?delay=0')).toMatchObject({ status: 'committed' });
  await router.idle();
  expect(app.requests.slice(before)).toMatchObject([
    { kind: 'page-data', url: '/lab/slow?delay=0', mode: 'rest' },
  ]);
  expect(await router.html()).toContain('id="slow-data"');
});
