/**
 * The devtools in production with `?devtools`: the timeline, the queue's lanes, the settings and
 * a clock that moves, read through the same snapshot API the panel draws from.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { DevtoolsApi } from '../../client/devtools/install';
import { openAt, serveWithChromium, skipWithoutChromium, type RunningServer } from './harness';

/** Prefetches on a loaded machine can take seconds: wait for them, never time them. */
const SLOW = { timeout: 20_000 };

type WithDevtools = { __SWITCHYARD_DEVTOOLS__: DevtoolsApi };
const snapshot = (page: Page) =>
  page.evaluate(() => (window as unknown as WithDevtools).__SWITCHYARD_DEVTOOLS__.snapshot());
const entryOf = async (page: Page, key: string) => (await snapshot(page)).entries.find((e) => e.key === key);

describe.skipIf(skipWithoutChromium)('the devtools in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
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

    await page.evaluate(() => (window as unknown as WithDevtools).__SWITCHYARD_DEVTOOLS__.moveClock(31_000));
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
