/**
 * The docs in the production build. Pictures: in the HTML the server sends (so they need no
 * JavaScript), named for assistive technology by their titles, drawn at a real size, and coloured
 * from the site's theme in light and dark. Pages: headings that link to themselves, code
 * highlighted by the server, a contents list, previous and next, no code line cut off, a search
 * box whose index loads on focus, and on a phone the page list folded away.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  openPage,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
} from './harness';

/** Code blocks wider than the page scroll inside themselves; nothing else is cut off or widens it. */
function clippedCode(page: Page) {
  return page.evaluate(() => ({
    clipped: [...document.querySelectorAll('article pre')]
      .filter((pre) => pre.scrollWidth > pre.clientWidth && getComputedStyle(pre).overflowX !== 'auto')
      .map((pre) => pre.textContent!.slice(0, 40)),
    pageWiderThanWindow: document.documentElement.scrollWidth > window.innerWidth,
  }));
}

const PAGES = ['/docs/navigation', '/docs/prefetch-cache', '/docs/reading-guide'];

describe.skipIf(skipWithoutChromium)('docs pages in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  test.each(PAGES)('%s is served, and listed in the docs nav', async (path) => {
    const response = await fetch(`${server.url}${path}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`href="${path}"`);
    expect(html).not.toMatch(/&lt;svg/);
  });

  test('the pictures are in the document, named by their titles, without JavaScript', async () => {
    const { page, console, errors } = await openPage(browser, { javaScriptEnabled: false });
    for (const path of ['/docs/navigation', '/docs/prefetch-cache']) {
      await page.goto(`${server.url}${path}`);
      const figures = page.locator('article svg[role="img"]');
      expect(await figures.count()).toBe(3);
      for (const figure of await figures.all()) {
        const title = (await figure.locator('title').textContent())!;
        expect(title.length).toBeGreaterThan(10);
        // aria-labelledby names the picture by its title, then describes it by its desc.
        const name = await figure.evaluate((svg) =>
          svg
            .getAttribute('aria-labelledby')!
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent)
            .join(' '),
        );
        expect(name.startsWith(title)).toBe(true);
        const box = (await figure.boundingBox())!;
        expect(box.width).toBeGreaterThan(400);
        expect(box.height).toBeGreaterThan(150);
      }
    }
    expect(errors).toEqual([]);
    expect(console).toEqual([]);
  });

  test('the pictures take their colours from the theme, light and dark', async () => {
    const { page } = await openPage(browser);
    const fillOf = () =>
      page
        .locator('article svg .stale')
        .first()
        .evaluate((el) => getComputedStyle(el).fill);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${server.url}/docs/prefetch-cache`);
    const light = await fillOf();
    await page.emulateMedia({ colorScheme: 'dark' });
    const dark = await fillOf();
    // Neither is the SVG default (black), and the dark theme has its own.
    expect(light).not.toBe('rgb(0, 0, 0)');
    expect(dark).not.toBe('rgb(0, 0, 0)');
    expect(dark).not.toBe(light);
  });

  test('a long page: self-linked headings, highlighted code, contents, previous and next, and search', async () => {
    const { page, requests, errors } = await openPage(browser);
    // A wait that stalls fails naming itself, before the test's own 30 s end it without a word.
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/docs/getting-started`);
    await waitForHydration(page);

    const headings = await page.evaluate(() =>
      [...document.querySelectorAll('article :is(h2, h3, h4)')].map((h) => ({
        id: h.id,
        link: h.querySelector('a')?.getAttribute('href'),
        name: h.querySelector('a')?.textContent?.trim(),
      })),
    );
    expect(headings.length).toBeGreaterThan(10);
    for (const { id, link, name } of headings) {
      expect(id).toBeTruthy();
      expect(link).toBe(`#${id}`);
      expect(name).toBeTruthy();
    }

    // Highlighted by the server: classed tokens in colours of their own, and no highlighter loaded.
    const keyword = page.locator('article pre .tok-keyword').first();
    expect(await keyword.evaluate((el) => getComputedStyle(el).color)).not.toBe(
      await keyword.evaluate((el) => getComputedStyle(el.closest('pre')!).color),
    );
    expect(requests.filter((r) => /shiki|oniguruma|\.wasm/i.test(r))).toEqual([]);

    const contents = page.getByRole('navigation', { name: 'On this page' }).getByRole('link');
    expect(await contents.first().getAttribute('href')).toBe(`#${headings[0]!.id}`);
    expect(await contents.count()).toBeGreaterThanOrEqual(4);

    // Previous and next follow the docs nav's order.
    const nav = await page
      .locator('.docs-nav a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    const at = nav.indexOf('/docs/getting-started');
    expect(await page.locator('a[rel="prev"]').getAttribute('href')).toBe(nav[at - 1]);
    expect(await page.locator('a[rel="next"]').getAttribute('href')).toBe(nav[at + 1]);

    expect(await clippedCode(page)).toEqual({ clipped: [], pageWiderThanWindow: false });

    // Search: the index is fetched only once the box has focus, which `/` gives it.
    const isIndex = (r: string) => r.includes('/api/docs-search');
    expect(requests.filter(isIndex)).toEqual([]);
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    // A failed index says so, and the next focus asks again. The route stays for the whole page:
    // Chromium can leave the next request to a URL hanging when interception of it is turned off
    // mid-page (`times: 1`, `unroute`; microsoft/playwright#41802).
    let indexRequests = 0;
    await page.route('**/api/docs-search', (route) =>
      indexRequests++ === 0 ? route.fulfill({ status: 503 }) : route.continue(),
    );
    await page.keyboard.press('/');
    const box = page.getByRole('combobox', { name: 'Search the docs' });
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    const status = page.locator('.docs-search [role="status"]');
    await status.getByText('Search is unavailable right now.').waitFor();
    await box.blur();
    await page.keyboard.press('/');
    await expect.poll(() => requests.filter(isIndex).length).toBe(2);
    await expect.poll(() => status.textContent()).toBe('');
    await box.pressSequentially('parallel slots');
    const first = page.getByRole('option').first();
    await first.waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'));
    const documents = requests.filter((r) => r.startsWith('document')).length;
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/docs/routing#parallel-slots`);
    await page.locator('h2#parallel-slots').waitFor();
    // A soft navigation: the same document, no new one loaded.
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    expect(requests.filter((r) => r.startsWith('document'))).toHaveLength(documents);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  test('on a phone the page list folds behind one control, and the text starts near the top', async () => {
    // Without JavaScript: the fold is a <details>, and the layout is the server's.
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      javaScriptEnabled: false,
    });
    const page = await context.newPage();
    await page.goto(`${server.url}/docs/routing`);
    const pages = page.locator('.docs-pages > summary');
    expect(await pages.isVisible()).toBe(true);
    expect(await page.locator('.docs-nav a').first().isVisible()).toBe(false);
    const header = (await page.locator('.site-header').boundingBox())!;
    const title = (await page.locator('article h1').boundingBox())!;
    // Under the site's header, only the search box and the list's control come before the title.
    expect(title.y - (header.y + header.height)).toBeLessThan(120);
    expect(await clippedCode(page)).toEqual({ clipped: [], pageWiderThanWindow: false });
    await pages.click();
    expect(await page.locator('.docs-nav a[aria-current="page"]').isVisible()).toBe(true);
    await context.close();
  });
});
