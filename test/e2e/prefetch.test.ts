/**
 * The prefetch cache in Chromium against the production demo. Time is
 * Playwright's fake clock: installed before the page loads, moved on only by `fastForward`.
 * What needs no browser (an expired entry fetched again, a fresh auto entry's one request for the
 * rest) is tested with switchyard-react/testing in test/testing/demo-cache.test.ts.
 */
import type { Browser, Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { statusLabel } from '../../client/devtools/timeline';
import {
  openPage,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
  devtoolsSnapshot,
  prefetchQueueIdle,
} from './harness';

const dataMode = (r: Request) => new URL(r.url()).searchParams.get('_syp');
const isPageData = (r: Request) => new URL(r.url()).searchParams.has('_sy');
const isPrefetch = (r: Request) => isPageData(r) && ['auto', 'full'].includes(dataMode(r) ?? '');
/** A request a navigation made: a document, or page data that is not a prefetch. */
const isNavigationRequest = (r: Request) =>
  r.resourceType() === 'document' || (isPageData(r) && !isPrefetch(r));
const pathOf = (r: Request) => new URL(r.url()).pathname + new URL(r.url()).search.replace(/[?&]_sy.*$/, '');

const snapshot = devtoolsSnapshot;

/** Prefetches of slow pages take seconds; polls wait that long. */
const POLL = { timeout: 10_000 };

/** Waits until no prefetch is running or waiting. */
const queueIdle = async (page: Page): Promise<void> => void (await prefetchQueueIdle(page, POLL.timeout));

async function entryOf(page: Page, key: string) {
  return (await snapshot(page)).entries.find((e) => e.key === key);
}

/** Waits until the cache holds a settled entry for `key`: present, and neither running nor waiting. */
async function settledEntry(page: Page, key: string) {
  await expect
    .poll(async () => {
      const { entries, queue } = await snapshot(page);
      const busy = queue.running.includes(key) || queue.waiting.includes(key);
      return entries.some((e) => e.key === key) && !busy;
    }, POLL)
    .toBe(true);
  return (await entryOf(page, key))!;
}

describe.skipIf(skipWithoutChromium)('the prefetch cache in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  async function open(
    path: string,
    options: { saveData?: boolean; beforeLoad?: (page: Page) => Promise<void> } = {},
  ) {
    const recorded = await openPage(browser, options);
    const requests: Request[] = [];
    recorded.page.on('request', (r) => requests.push(r));
    await recorded.page.clock.install();
    await options.beforeLoad?.(recorded.page);
    await recorded.page.goto(server.url + path);
    await waitForHydration(recorded.page);
    return { ...recorded, requests };
  }

  test('a link scrolled into view is prefetched, and clicking it makes zero requests', async () => {
    const { page, requests, errors } = await open('/');
    const link = page.locator('main a.card-link').last();
    const href = (await link.getAttribute('href'))!;
    // From the feed a photo opens in the modal: the cache holds that variant.
    const key = `${href} (feed)/@modal`;
    // Far below the fold: not prefetched until it comes within 200 px of the viewport.
    expect(await entryOf(page, key)).toBeUndefined();
    expect(requests.filter((r) => pathOf(r) === href)).toEqual([]);
    await link.scrollIntoViewIfNeeded();
    const entry = await settledEntry(page, key);
    expect(entry).toMatchObject({ kind: 'auto', status: 'fresh', lastUsedTime: null });
    expect(
      requests
        .filter(isPrefetch)
        .filter((r) => pathOf(r) === href)
        .map(dataMode),
    ).toEqual(['auto']);

    // Every resource the page asks for between the click and the new heading is timed here.
    await page.evaluate(() => {
      const marks = ((window as unknown as Record<string, unknown>).marks = { click: 0, paint: 0 });
      addEventListener('click', () => (marks.click = performance.now()), { capture: true });
      new MutationObserver(() => {
        if (!marks.paint && document.querySelector('[role="dialog"] h1')) marks.paint = performance.now();
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const before = requests.length;
    await link.click();
    await page.waitForURL(server.url + href);
    await expect.poll(() => page.locator('[role="dialog"] h1').count()).toBe(1);
    const during = await page.evaluate(() => {
      const { click, paint } = (window as unknown as { marks: { click: number; paint: number } }).marks;
      return performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime >= click && e.startTime <= paint)
        .map((e) => e.name);
    });
    expect(during).toEqual([]);
    // And nothing the navigation asked for at all, then or later (new links may prefetch).
    expect(requests.slice(before).filter(isNavigationRequest)).toEqual([]);
    expect((await entryOf(page, key))?.status).toBe('reusable');
    expect(errors).toEqual([]);
  });

  test('past 30 s an auto entry is stale: the loading state shows before the refetched data', async () => {
    const { page, requests } = await open('/lab');
    const key = '/lab/slow';
    const entry = await settledEntry(page, key);
    expect(entry).toMatchObject({ kind: 'auto', status: 'fresh' });
    // The auto prefetch stopped at the page's loading.tsx: its slow data was not fetched.
    expect(
      requests
        .filter(isPrefetch)
        .filter((r) => pathOf(r) === key)
        .map(dataMode),
    ).toEqual(['auto']);

    await page.clock.fastForward(30_000);
    expect((await entryOf(page, key))?.status).toBe('stale');

    // Hold the refetch, so the test sees what shows before the data arrives.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const refetches: string[] = [];
    await page.route(
      (url) => url.pathname === key && url.searchParams.has('_sy'),
      async (route) => {
        refetches.push(dataMode(route.request()) ?? 'navigation');
        await held;
        await route.continue();
      },
    );
    const before = requests.length;
    const now = (await snapshot(page)).now;
    await page.locator(`main a[href="${key}"]`).click();
    await page.waitForURL(server.url + key);
    await expect.poll(() => page.locator('#slow-loading').isVisible()).toBe(true);
    expect(await page.locator('#slow-data').count()).toBe(0);
    // Stale: the scripts and the loading state are reused and all the data is fetched again
    // (asked for just after the loading state commits, so it may not have gone out yet).
    await expect.poll(() => refetches, POLL).toEqual(['full']);
    // Using a stale entry sets lastUsedTime again.
    expect((await entryOf(page, key))?.lastUsedTime).toBeGreaterThanOrEqual(now);
    release();
    await expect.poll(() => page.locator('#slow-data').isVisible(), POLL).toBe(true);
    expect(await page.locator('#slow-loading').count()).toBe(0);
    expect(requests.slice(before).filter((r) => r.resourceType() === 'document')).toEqual([]);
  });

  test('prefetch makes a full entry, prefetch={false} none, and the full entry shows no loading state', async () => {
    const { page, requests } = await open('/lab');
    await settledEntry(page, '/lab/slow?delay=1000');
    const { entries } = await snapshot(page);
    expect(entries.find((e) => e.key === '/lab/slow?delay=1000')?.kind).toBe('full');
    await page.locator('a[href="/lab/slow?delay=3000"]').hover();
    expect(entries.some((e) => e.key.includes('delay=3000'))).toBe(false);
    expect(requests.filter((r) => r.url().includes('delay=3000'))).toEqual([]);
    expect(await entryOf(page, '/?devtools')).toBeUndefined();

    const before = requests.length;
    await page.locator('a[href="/lab/slow?delay=1000"]').click();
    await expect.poll(() => page.locator('#slow-data').isVisible()).toBe(true);
    expect(await page.locator('#slow-loading').count()).toBe(0);
    expect(requests.slice(before).filter(isNavigationRequest)).toEqual([]);
  });

  test('with Save-Data nothing is prefetched, in view or on hover', async () => {
    const { page, requests } = await open('/', { saveData: true });
    await page.locator('header a[href="/docs"]').hover();
    await page.locator('main a.card-link').last().scrollIntoViewIfNeeded();
    // Intersection observers report in the frame's rendering steps: two frames are enough.
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    expect((await snapshot(page)).entries).toEqual([]);
    expect(requests.filter(isPrefetch)).toEqual([]);
  });

  test('a prefetch that failed leaves the navigation to fetch for itself', async () => {
    const { page, requests } = await open('/', {
      beforeLoad: async (page) => {
        await page.route(
          (url) => url.searchParams.get('_syp') === 'auto',
          (route) => route.fulfill({ status: 503, contentType: 'text/plain', body: 'busy' }),
        );
      },
    });
    await expect.poll(() => requests.filter(isPrefetch).map(pathOf)).toContain('/tags');
    await queueIdle(page);
    // A failed prefetch keeps its entry, marked failed, so its link is not fetched again.
    expect(await entryOf(page, '/tags')).toMatchObject({ data: 'failed' });
    const before = requests.length;
    await page.locator('header a[href="/tags"]').click();
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('Tags');
    expect(requests.slice(before).filter(isNavigationRequest).map(pathOf)).toEqual(['/tags']);
    expect(requests.slice(before).filter((r) => r.resourceType() === 'document')).toEqual([]);
  });

  test('the panel opens with ?devtools and Alt+Shift+D, and agrees with the snapshot', async () => {
    const { page } = await open('/lab?devtools');
    await settledEntry(page, '/lab/slow');
    await settledEntry(page, '/lab/slow?delay=1000');
    await page.clock.pauseAt(Date.now() + 1_000);
    const panel = page.locator('#switchyard-devtools');
    await expect.poll(() => panel.isVisible()).toBe(true);
    const { entries, queue } = await snapshot(page);
    await expect
      .poll(() =>
        panel
          .locator('tr[data-devtools-entry]')
          .evaluateAll((rows) =>
            rows.map((row) => [...row.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)),
          ),
      )
      .toEqual(entries.map((e) => [e.key, e.kind, statusLabel(e)]));
    expect(await panel.locator('[data-devtools="queue"]').textContent()).toBe(
      `running ${queue.running.length} · waiting ${queue.waiting.length}`,
    );

    await page.keyboard.press('Alt+Shift+D');
    await expect.poll(() => panel.count()).toBe(0);
    await page.keyboard.press('Alt+Shift+D');
    await expect.poll(() => panel.isVisible()).toBe(true);
  });
  test('the panel: its own styles, closed is remembered, and Alt+Shift+D is the typist’s in a field', async () => {
    const { page } = await open('/photos/3?devtools');
    const panel = page.locator('#switchyard-devtools');
    await expect.poll(() => panel.isVisible()).toBe(true);
    // An app rule for every header reaches the site's header, not the panel's.
    await page.addStyleTag({ content: 'header { background: rgb(1, 2, 3) !important; }' });
    expect(await page.locator('.site-header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(1, 2, 3)',
    );
    expect(await panel.locator('header').evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(
      'rgb(1, 2, 3)',
    );
    await panel.getByRole('button', { name: 'Close devtools' }).click();
    await expect.poll(() => panel.count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('switchyard:devtools-closed'))).toBe('1');
    // Typing in a field: the shortcut types, the panel stays shut.
    await page.locator('input[name="author"]').focus();
    await page.keyboard.press('Alt+Shift+D');
    await page.keyboard.type('x');
    expect(await page.locator('input[name="author"]').inputValue()).toContain('x');
    expect(await panel.count()).toBe(0);
    await page.locator('input[name="author"]').blur();
    await page.keyboard.press('Alt+Shift+D');
    await expect.poll(() => panel.isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('switchyard:devtools-closed'))).toBeNull();
  });
});
