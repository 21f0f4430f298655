/**
 * What the browser runs before its first paint, read from a production build of the client
 * entry (the one the bench weighs): the route tree, its rules and its matcher stay at build time
 * and on the server (the browser matches against the build's route table), the router's navigation and prefetch code loads once the page is up, the devtools
 * (their API, snapshot, clock and panel) only when asked for, and devalue's decoder only with page data that came encoded.
 */
import { beforeAll, expect, test } from 'vitest';
import { routerRuntime, type CodeSize } from '../../scripts/bench/runtime';

let firstLoad: string[];
let afterPaint: string[];
const namesOf = (size: CodeSize) => size.modules.map((m) => m.module);

beforeAll(async () => {
  const runtime = await routerRuntime();
  firstLoad = namesOf(runtime);
  afterPaint = namesOf(runtime.afterPaint);
}, 60_000);

test('the browser matches URLs against the route table: the tree, its rules and its matcher never load', () => {
  const all = [...firstLoad, ...afterPaint];
  expect(all).toContain('shared/route-table.ts');
  for (const module of [
    'shared/route-tree.ts',
    'shared/validate-route-tree.ts',
    'shared/folder-name.ts',
    'shared/match-route.ts',
    'shared/segment.ts',
    'shared/intercept.ts',
  ])
    expect(all).not.toContain(module);
});

test('the devtools load only when asked for: a page view carries their hook alone', () => {
  expect(firstLoad).toContain('client/entry.tsx');
  expect(afterPaint).toContain('client/devtools/install.ts');
  for (const module of [
    'client/devtools/panel.tsx',
    'client/devtools/api.ts',
    'client/devtools/snapshot.ts',
    'client/devtools/clock.ts',
  ]) {
    expect(firstLoad).not.toContain(module);
    expect(afterPaint).not.toContain(module);
  }
});

test('navigation, prefetch and the devtools hook load after the first paint', () => {
  const later = [
    'client/router.ts',
    'client/prefetcher.ts',
    'shared/prefetch-cache.ts',
    'shared/route-table.ts',
    'client/browser-view.ts',
    'client/devtools/install.ts',
  ];
  for (const module of later) {
    expect(firstLoad).not.toContain(module);
    expect(afterPaint).toContain(module);
  }
  // The first load keeps what hydration needs.
  for (const module of ['client/render-route.tsx', 'client/error-boundary.tsx', 'client/lazy-router.ts'])
    expect(firstLoad).toContain(module);
});

test("an app without slots or interceptions loads neither the slots' rules nor the interception matcher", () => {
  const all = [...firstLoad, ...afterPaint];
  expect(all).toContain('client/page-data-client.ts');
  expect(all).not.toContain('client/slot-rules.ts');
  expect(all).not.toContain('client/route-interception.ts');
});

test('the Sentry SDK is neither first-load nor after-paint code', () => {
  expect([...firstLoad, ...afterPaint].some((m) => m.includes('@sentry'))).toBe(false);
});

test('devalue loads only with page data that came encoded: neither the first load nor the router needs it', () => {
  expect([...firstLoad, ...afterPaint].some((m) => m.includes('devalue'))).toBe(false);
});
