/**
 * The docs' pictures in the production build: in the HTML the server sends (so they need no
 * JavaScript), named for assistive technology by their titles, drawn at a real size, and coloured
 * from the site's theme in light and dark.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { openPage, serveWithChromium, skipWithoutChromium, type RunningServer } from './harness';

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
});
