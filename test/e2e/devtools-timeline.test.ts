/**
 * The devtools in production: none of their code loads with a page until asked for; with
 * `?devtools`, the timeline, the queue's lanes, the settings and a clock that moves, read through
 * the same snapshot API the panel draws from.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  chunkOf,
  devtoolsSnapshot as snapshot,
  openAt,
  openPage,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
  type WithDevtools,
} from './harness';

/** Prefetches on a loaded machine can take seconds: wait for them, never time them. */
const SLOW = { timeout: 20_000 };

const entryOf = async (page: Page, key: string) => (await snapshot(page)).entries.find((e) => e.key === key);
const moveClock = (page: Page, ms: number) =>
  page.evaluate(
    async (ms) => (await (window as unknown as WithDevtools).__SWITCHYARD_DEVTOOLS__()).moveClock(ms),
    ms,
  );

describe.skipIf(skipWithoutChromium)('the devtools in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  test('a page view loads no devtools code until asked: the console call loads the API, the shortcut the panel', async () => {
    const { page, requests, errors } = await openPage(browser);
    const scripts = {
      api: chunkOf('client/devtools/api.ts', ''),
      panel: chunkOf('client/devtools/panel.tsx', ''),
    };
    const loaded = (chunk: string) => requests.some((r) => r.endsWith(`/${chunk}`));
    await page.goto(`${server.url}/cache-lab`);
    await waitForHydration(page);
    // The router has started (it hooks the devtools as it does) and its prefetches are on their way.
    await expect.poll(() => requests.filter((r) => r.includes('_syp=')).length, SLOW).toBeGreaterThan(0);
    expect(loaded(scripts.api)).toBe(false);
    expect(loaded(scripts.panel)).toBe(false);

    expect((await snapshot(page)).clockOffset).toBe(0);
    expect(loaded(scripts.api)).toBe(true);
    expect(loaded(scripts.panel)).toBe(false);

    await page.keyboard.press('Alt+Shift+D');
    await expect.poll(() => page.locator('#switchyard-devtools').isVisible(), SLOW).toBe(true);
    expect(loaded(scripts.panel)).toBe(true);
    expect(errors).toEqual([]);
  });

  test('the cache lab: each kind of entry, then the clock moved 31 s turns the unused auto entry stale', async () => {
    const { page, errors } = await openAt(browser, `${server.url}/cache-lab?devtools`);
    await expect.poll(async () => (await entryOf(page, '/tags'))?.data, SLOW).toBe('settled');
    await expect.poll(async () => (await entryOf(page, '/lab/slow'))?.partial, SLOW).toBe(true);
    await expect.poll(async () => (await entryOf(page, '/lab/slow?delay=500'))?.kind, SLOW).toBe('full');
    await expect.poll(async () => (await entryOf(page, '/lab/server-error'))?.data, SLOW).toBe('failed');
    await expect
      .poll(async () => (await entryOf(page, '/photos/5 (feed)/@modal'))?.data, SLOW)
      .toBe('settled');
    const before = await snapshot(page);
    expect(before.settings).toEqual({
      freshMs: 30_000,
      staleMs: 300_000,
      concurrency: 5,
      routeScriptTimeoutMs: 3_800,
      prefetchTimeoutMs: 15_000,
    });
    expect(await entryOf(page, '/tags')).toMatchObject({ kind: 'auto', status: 'fresh' });

    const panel = page.locator('#switchyard-devtools');
    await expect.poll(() => panel.isVisible(), SLOW).toBe(true);
    // One bar per entry on the timeline, and the settings in force.
    // The panel draws on its own tick: wait for it to catch up with the snapshot.
    await expect.poll(() => panel.locator('[data-devtools-bar]').count(), SLOW).toBe(before.entries.length);
    expect(await panel.locator('[data-devtools="settings"]').textContent()).toContain('fresh 30 s');
    expect(await panel.locator('[data-devtools="budget"]').textContent()).toMatch(
      /^Budget of this page view: \d+\.\d KiB of 48\.0 KiB spent/,
    );

    await moveClock(page, 31_000);
    expect(await entryOf(page, '/tags')).toMatchObject({ status: 'stale' });
    expect(await entryOf(page, '/lab/slow?delay=500')).toMatchObject({ status: 'reusable' });
    expect((await snapshot(page)).clockOffset).toBe(31_000);
    await expect
      .poll(() => panel.locator('[data-devtools="clock"]').textContent())
      .toContain('clock moved +31 s');

    // The panel's own buttons move the same clock; "Real time" puts it back.
    await panel.getByRole('button', { name: '+5 min' }).click();
    expect(await entryOf(page, '/tags')).toMatchObject({ status: 'expired' });
    await panel.getByRole('button', { name: 'Real time' }).click();
    expect((await snapshot(page)).clockOffset).toBe(0);
    expect(await entryOf(page, '/tags')).toMatchObject({ status: 'fresh' });
    expect(errors).toEqual([]);
  });
});
