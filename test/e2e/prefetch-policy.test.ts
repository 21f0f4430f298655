/**
 * What prefetching costs a real link, in Chromium against the fixture app: a page of sixty links
 * to pages of about 5 KiB each spends no more than the byte budget on the links in view, intent
 * goes first and past it, a page the user leaves stops prefetching, and a 2G link prefetches only
 * on intent. Slow answers are held by the test (Playwright's request routing), never waited out.
 */
import type { Browser, Page, Request, Route } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { PREFETCH_BUDGET_BYTES } from '../../shared/constants';
import {
  devtoolsSnapshot,
  isPageData,
  openPage,
  prefetchQueueIdle,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
} from './harness';

const isPrefetch = (r: Request) =>
  isPageData(r) && ['auto', 'full'].includes(new URL(r.url()).searchParams.get('_syp') ?? '');
const ITEM = /^\/lab\/many\/\d+$/;
const POLL = { timeout: 20_000 };

const snapshot = devtoolsSnapshot;

/** Two frames: IntersectionObserver has told every link in view by then. */
const twoFrames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

const queueIdle = (page: Page) => prefetchQueueIdle(page, POLL.timeout);

describe.skipIf(skipWithoutChromium)('what prefetching costs the link, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('basic', (s, b) => {
    [server, browser] = [s, b];
  });

  async function open(path: string, options: { effectiveType?: string; hold?: boolean } = {}) {
    const { page } = await openPage(browser, options);
    const prefetches: Request[] = [];
    const held: Route[] = [];
    page.on('request', (r) => isPrefetch(r) && prefetches.push(r));
    if (options.hold) {
      // Prefetch answers wait until the test lets them go: a link as slow as the test needs.
      await page.route(
        (url) => url.searchParams.has('_syp'),
        (route) => void held.push(route),
      );
    }
    await page.goto(server.url + path);
    await waitForHydration(page);
    return { page, prefetches, held };
  }

  test('the links in view spend no more than the page view’s byte budget; a hovered link past it is still prefetched, and its click makes no request', async () => {
    const { page, prefetches } = await open('/lab/many');
    await twoFrames(page);
    const { entries } = await queueIdle(page);
    // What Chromium received for each: headers and (compressed) body.
    const sizes = await Promise.all(
      prefetches.map(async (r) => {
        const { responseBodySize, responseHeadersSize } = await r.sizes();
        return responseBodySize + responseHeadersSize;
      }),
    );
    const spent = sizes.reduce((a, b) => a + b, 0);
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(PREFETCH_BUDGET_BYTES);
    // The budget counted the same bytes: the body as Chromium measured it, the headers as they went.
    const { budget } = await snapshot(page);
    expect(Math.abs(budget.spentBytes - spent)).toBeLessThanOrEqual(4 * prefetches.length);
    // Every link is in view (with the margin), but only some were worth their bytes.
    const prefetched = new Set(entries.map((e) => e.key));
    expect(prefetched.size).toBe(prefetches.length);
    expect(prefetched.size).toBeLessThan(30);
    // The layout data this page holds is not sent again: the root segment comes back without it.
    const first = (await (await prefetches[0]!.response())!.json()) as {
      segments: { reuseLayoutData?: true }[];
    };
    expect(first.segments[0]!.reuseLayoutData).toBe(true);

    const last = page.getByRole('link', { name: 'Item 60', exact: true });
    expect(prefetched.has('/lab/many/60')).toBe(false);
    await last.hover();
    await expect
      .poll(async () => (await snapshot(page)).entries.find((e) => e.key === '/lab/many/60')?.data, POLL)
      .toBe('settled');
    const before = prefetches.length;
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    await last.click();
    await page.getByRole('heading', { name: 'Item 60' }).waitFor();
    expect(requests.filter((r) => isPageData(r) || r.resourceType() === 'document')).toEqual([]);
    expect(prefetches.length).toBe(before);
    await page.context().close();
  });

  test("intent goes before the links in view, and a left page's queue is emptied: its prefetches are aborted and none starts after the click", async () => {
    const { page, prefetches, held } = await open('/lab/many', { hold: true });
    await twoFrames(page);
    // The fixture's config lets two prefetches run at once; the budget lets six go in all.
    await expect.poll(async () => (await snapshot(page)).queue.running.length, POLL).toBe(2);
    const { queue } = await snapshot(page);
    expect(queue.waiting.length).toBeGreaterThan(0);
    // The pointer rests on a link the budget held back: it goes first in line.
    await page.getByRole('link', { name: 'Item 50', exact: true }).hover();
    await expect.poll(async () => (await snapshot(page)).queue.waiting[0], POLL).toBe('/lab/many/50');

    const started = prefetches.length;
    await page.getByRole('link', { name: 'Home', exact: true }).click();
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    const after = await snapshot(page);
    // Only the new page's own link (held like the rest) is in the queue now.
    expect([...after.queue.running, ...after.queue.waiting].filter((key) => ITEM.test(key))).toEqual([]);
    expect(after.entries.filter((e) => ITEM.test(e.key))).toEqual([]);
    // The running ones were cut off on the wire; none of the waiting ones ever went.
    await expect.poll(() => prefetches.slice(0, started).every((r) => r.failure() !== null), POLL).toBe(true);
    expect(prefetches.slice(started).filter((r) => ITEM.test(new URL(r.url()).pathname))).toEqual([]);
    for (const route of held) await route.continue().catch(() => {}); // aborted by the page already
    await page.context().close();
  });

  test('on a 2G link nothing in view is prefetched; what the pointer rests on is', async () => {
    const { page, prefetches } = await open('/lab/many', { effectiveType: '2g' });
    await twoFrames(page);
    await page.getByRole('link', { name: 'Item 3', exact: true }).hover();
    await expect
      .poll(async () => (await snapshot(page)).entries.map((e) => [e.key, e.data]), POLL)
      .toEqual([['/lab/many/3', 'settled']]);
    expect(prefetches.map((r) => new URL(r.url()).pathname)).toEqual(['/lab/many/3']);
    await page.context().close();
  });
});
