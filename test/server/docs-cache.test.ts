/**
 * The demo's docs pages in production mode: rendered once each, and a name that is no page is
 * never remembered, so made-up slugs cannot grow the cache.
 */
import { afterAll, beforeAll, expect, test, vi } from 'vitest';

let docs: typeof import('../../src/lib/docs.server');

beforeAll(async () => {
  // The module decides at import whether it caches.
  vi.stubEnv('NODE_ENV', 'production');
  vi.resetModules();
  docs = await import('../../src/lib/docs.server');
});
afterAll(() => {
  vi.unstubAllEnvs();
});

test('1,000 unique missing slugs leave nothing in the cache; a real page is cached once', async () => {
  for (let i = 0; i < 1_000; i++) {
    expect(await docs.readDocsPage([`missing-${'x'.repeat(1_000)}-${i}`])).toBeUndefined();
  }
  expect(docs.cachedDocsPages()).toBe(0);
  const first = await docs.readDocsPage(['prefetch-cache']);
  expect(first?.title).toBeTruthy();
  expect(await docs.readDocsPage(['prefetch-cache'])).toBe(first);
  expect(await docs.readDocsPage([])).toBeDefined();
  expect(docs.cachedDocsPages()).toBe(2);
  // A page's first highlighting compiles its languages' grammars: seconds on a busy machine.
}, 60_000);
