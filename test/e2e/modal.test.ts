/**
 * The photo modal in Chromium: `/photos/<id>` intercepted into the
 * `(feed)/@modal` slot on a soft navigation from the feed, and a full page on a document load.
 */
import type { Browser, Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  devtoolsSnapshot,
  isDocument,
  isPageData,
  openPage,
  refreshFromDevtools,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
} from './harness';

const isNavigationData = (r: Request) => isPageData(r) && !new URL(r.url()).searchParams.has('_syp');

/**
 * What the page shows: the feed, the feed with a photo dialog over it, or a full photo page. Read
 * in one evaluation: read in steps, a dialog that closes between two of them leaves a locator
 * waiting for its heading until the test times out. A commit inside a view transition makes that
 * likely: it renders at the browser's next frame, a second or more after the URL under load.
 */
function view(page: Page): Promise<string> {
  return page.evaluate(() => {
    const main = document.querySelector('main h1')?.textContent ?? '';
    const dialog = document.querySelector('[role="dialog"]');
    return dialog ? `${main} + dialog: ${dialog.querySelector('h1')?.textContent}` : main;
  });
}

/** For a commit to show: one inside a view transition waits for frames, which come slowly under load. */
const COMMITTED = { timeout: 10_000 };

describe.skipIf(skipWithoutChromium)('the photo modal in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  async function openFeed() {
    const recorded = await openPage(browser);
    const requests: Request[] = [];
    recorded.page.on('request', (r) => requests.push(r));
    await recorded.page.goto(`${server.url}/`);
    await waitForHydration(recorded.page);
    const card = recorded.page.locator('main a.card-link').nth(2);
    const href = (await card.getAttribute('href'))!;
    const title = (await card.locator('.card-title').textContent())!;
    return { ...recorded, requests, card, href, title };
  }

  test('feed → a photo: a dialog over the feed, the URL changed, no document request', async () => {
    const { page, requests, card, href, title, errors, console } = await openFeed();
    await page.evaluate(() => window.scrollTo(0, 200));
    await card.scrollIntoViewIfNeeded();
    const feedScroll = await page.evaluate(() => scrollY);
    await card.click();
    await page.waitForURL(server.url + href);
    await expect.poll(() => view(page), COMMITTED).toBe(`Latest photos + dialog: ${title}`);
    expect(requests.filter(isDocument).map((r) => r.url())).toEqual([`${server.url}/`]);
    // The page under the dialog kept its scroll, and focus went into the dialog.
    expect(await page.evaluate(() => scrollY)).toBe(feedScroll);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('role')), COMMITTED)
      .toBe('dialog');
    expect(errors).toEqual([]);
    expect(console).toEqual([]);
  });

  test('Escape and the close button close it, and focus returns to the link that opened it', async () => {
    const { page, card, href, title } = await openFeed();
    await card.click();
    await page.waitForURL(server.url + href);
    await expect.poll(() => page.getByRole('dialog').count(), COMMITTED).toBe(1);
    // Tab stays inside the dialog.
    for (let i = 0; i < 8; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
    await page.keyboard.press('Escape');
    // Polled, not waitForURL: a history move has no load event to wait for.
    await expect.poll(() => page.url()).toBe(`${server.url}/`);
    await expect.poll(() => view(page), COMMITTED).toBe('Latest photos');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe(href);

    await card.click();
    await expect.poll(() => view(page), COMMITTED).toBe(`Latest photos + dialog: ${title}`);
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.url()).toBe(`${server.url}/`);
    await expect.poll(() => page.getByRole('dialog').count(), COMMITTED).toBe(0);
  });

  test('a reload shows the full page; back, forward, back each show the right view', async () => {
    const { page, card, href, title, requests } = await openFeed();
    await card.click();
    await expect.poll(() => view(page), COMMITTED).toBe(`Latest photos + dialog: ${title}`);

    // Before the reload, from the pages the router holds.
    await page.goBack();
    await expect.poll(() => view(page), COMMITTED).toBe('Latest photos');
    await page.goForward();
    await expect.poll(() => view(page), COMMITTED).toBe(`Latest photos + dialog: ${title}`);

    await page.reload();
    await waitForHydration(page);
    expect(await view(page)).toBe(title);
    expect(page.url()).toBe(server.url + href);

    await page.goBack();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => view(page), COMMITTED).toBe('Latest photos');
    await page.goForward();
    await page.waitForURL(server.url + href);
    await expect.poll(() => view(page), COMMITTED).toBe(title);
    await page.goBack();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => view(page), COMMITTED).toBe('Latest photos');
    // One document for the feed, one for the reload: the rest were soft.
    expect(requests.filter(isDocument)).toHaveLength(2);
  });

  test('from the open modal, a link to another page closes it', async () => {
    const { page, card, title } = await openFeed();
    await card.click();
    await expect.poll(() => view(page), COMMITTED).toBe(`Latest photos + dialog: ${title}`);
    const author = page.getByRole('dialog').locator('.byline a');
    const profile = (await author.getAttribute('href'))!;
    await author.click();
    await page.waitForURL(server.url + profile);
    await expect.poll(() => page.getByRole('dialog').count(), COMMITTED).toBe(0);
    expect(await page.locator('main h1').first().textContent()).not.toBe('Latest photos');
  });

  test('router.refresh() with the modal open keeps the modal and refetches it and the page under it', async () => {
    const { page, card, href, title, requests } = await openFeed();
    await card.click();
    await expect.poll(() => view(page), COMMITTED).toBe(`Latest photos + dialog: ${title}`);
    const before = requests.length;
    const refreshed = page.waitForResponse(
      (r) => isNavigationData(r.request()) && new URL(r.url()).pathname === href,
    );
    await refreshFromDevtools(page);
    const response = await refreshed;
    // Asked from the page under the modal, so the server answers with the modal again.
    expect(new URL(response.url()).searchParams.get('_sy')).toBe('/');
    expect(((await response.json()) as { intercept?: unknown }).intercept).toBeDefined();
    await expect.poll(() => view(page), COMMITTED).toBe(`Latest photos + dialog: ${title}`);
    const asked = requests.slice(before).filter(isNavigationData);
    expect(asked.map((r) => new URL(r.url()).pathname).sort()).toEqual(['/', href].sort());
  });

  test('the snapshot holds the intercepted and the plain entry for one path as two entries', async () => {
    const { page, card, href } = await openFeed();
    const keys = async () =>
      (await devtoolsSnapshot(page)).entries.map((e) => e.key).filter((k) => k.startsWith(href));
    await expect.poll(keys).toEqual([`${href} (feed)/@modal`]);
    // Open the photo, then leave the feed's scope by a tag: the tag page's grid has the photo.
    await card.click();
    await expect.poll(() => page.getByRole('dialog').count(), COMMITTED).toBe(1);
    await page.getByRole('dialog').locator('a.tag').first().click();
    await expect.poll(() => page.getByRole('dialog').count(), COMMITTED).toBe(0);
    await page.locator(`main a[href="${href}"]`).first().scrollIntoViewIfNeeded();
    await expect.poll(keys, { timeout: 5_000 }).toEqual([`${href} (feed)/@modal`, href]);

    // From the tag page the same link opens the full photo page.
    await page.locator(`main a[href="${href}"]`).first().click();
    await page.waitForURL(server.url + href);
    await expect.poll(() => page.getByRole('dialog').count(), COMMITTED).toBe(0);
    expect(await page.locator('main h1').first().textContent()).toBeTruthy();
  });
  test('a card opens the photo in one view transition and back closes it in one; none under reduced motion', async () => {
    const { page, errors, console } = await openPage(browser);
    // Each call records the direction <html> had when it was made.
    await page.addInitScript(() => {
      const calls: string[] = [];
      Object.assign(window, { transitions: calls });
      const start = Document.prototype.startViewTransition;
      Document.prototype.startViewTransition = function (this: Document, update) {
        calls.push(document.documentElement.dataset.navigation ?? 'none');
        return start.call(this, update);
      };
    });
    const transitions = () =>
      page.evaluate(() => (window as unknown as { transitions: string[] }).transitions);
    await page.goto(`${server.url}/`);
    await waitForHydration(page);
    const card = page.locator('main a.card-link').nth(2);
    const title = (await card.locator('.card-title').textContent())!;
    await card.click();
    await expect.poll(() => view(page), COMMITTED).toBe(`Latest photos + dialog: ${title}`);
    expect(await transitions()).toEqual(['forward']);
    await page.goBack();
    await expect.poll(() => view(page), COMMITTED).toBe('Latest photos');
    expect(await transitions()).toEqual(['forward', 'back']);
    // The direction goes when the transition has finished.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.navigation ?? null), COMMITTED)
      .toBe(null);

    await page.emulateMedia({ reducedMotion: 'reduce' });
    await card.click();
    await expect.poll(() => view(page), COMMITTED).toBe(`Latest photos + dialog: ${title}`);
    await page.goBack();
    await expect.poll(() => view(page), COMMITTED).toBe('Latest photos');
    expect(await transitions()).toHaveLength(2);
    expect(errors).toEqual([]);
    expect(console).toEqual([]);
  });
});
