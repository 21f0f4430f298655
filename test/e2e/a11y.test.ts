/**
 * axe-core on every page of the demo, at a desktop and a phone size, with JavaScript on and in
 * the error states: no serious or critical violation anywhere.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { serveWithChromium, skipWithoutChromium, waitForHydration, type RunningServer } from './harness';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const DOCS = [
  '',
  '/getting-started',
  '/routing',
  '/data-loading',
  '/types',
  '/navigation',
  '/prefetch-cache',
  '/server-actions',
  '/errors-and-redirects',
  '/requests-and-responses',
  '/route-handlers',
  '/reading-guide',
];
/** Pages that hydrate. */
const PAGES = [
  '/',
  '/photos/3',
  '/u/ada',
  '/tags',
  '/tags/nature',
  ...DOCS.map((slug) => `/docs${slug}`),
  '/lab',
  '/lab/slow?delay=0',
  '/lab/caught-error',
  '/lab/client-error',
  '/lab/load-error',
  '/photos/9999',
  '/sign-in?next=%2Fme',
];
/** Pages the server answers on its own: no app, nothing to hydrate. */
const BARE = ['/lab/server-error', `/lab/redirect?to=${encodeURIComponent('//evil.example')}`];

/** The serious and critical violations on the page as it is now, one line each. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    interface AxeViolation {
      id: string;
      impact: string | null;
      nodes: { target: unknown[] }[];
    }
    const { violations } = await axe.run();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  return found;
}

describe.skipIf(skipWithoutChromium)('accessibility (axe-core)', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  const open = async (size: (typeof SIZES)[number], path: string, hydrates = true) => {
    const context = await browser.newContext({ viewport: size });
    const page = await context.newPage();
    await page.goto(server.url + path);
    if (hydrates) await waitForHydration(page);
    return page;
  };

  describe.each(SIZES)('at $width×$height', (size) => {
    test.each(PAGES)('%s', async (path) => {
      const page = await open(size, path);
      expect(await violations(page)).toEqual([]);
      await page.context().close();
    });

    test.each(BARE)('%s (the server’s own page)', async (path) => {
      const page = await open(size, path, false);
      expect(await violations(page)).toEqual([]);
      await page.context().close();
    });

    test('the header says where you are, buttons look like the site, small links are big enough', async () => {
      const page = await open(size, '/docs/routing');
      expect(await page.locator('.nav-list a[aria-current="page"]').allTextContents()).toEqual(['Docs']);
      // A soft navigation moves it.
      await page.locator('.nav-list a[href="/lab"]').click();
      await expect
        .poll(() => page.locator('.nav-list a[aria-current="page"]').allTextContents())
        .toEqual(['Lab']);
      await page.goto(`${server.url}/photos/3`);
      await waitForHydration(page);
      const looks = await page.evaluate(() => {
        const button = getComputedStyle(document.querySelector('.comment-form .button')!);
        const body = getComputedStyle(document.body);
        // The browser's own button font is 13.3 px Arial with a 2 px outset border.
        return {
          font: button.fontFamily === body.fontFamily,
          size: button.fontSize === body.fontSize,
          border: button.borderStyle,
        };
      });
      expect(looks).toEqual({ font: true, size: true, border: 'none' });
      await page.goto(`${server.url}/`);
      const handle = await page.locator('.card-meta a').first().boundingBox();
      expect(handle!.height).toBeGreaterThanOrEqual(24);
      // The brand keeps off the top edge of the screen.
      expect((await page.locator('.brand').boundingBox())!.y).toBeGreaterThanOrEqual(8);
      await page.context().close();
    });

    test('error states: a caught error, the app-wide fallback, and the photo modal', async () => {
      const caught = await open(size, '/lab/caught-error');
      await caught.locator('#break').click();
      await caught.locator('#caught-message').waitFor();
      expect(await violations(caught)).toEqual([]);
      await caught.context().close();

      const fallback = await open(size, '/lab/client-error');
      await fallback.locator('#break').click();
      await fallback.getByText('Application error').waitFor();
      expect(await violations(fallback)).toEqual([]);
      await fallback.context().close();

      const feed = await open(size, '/');
      await feed.locator('main a[href="/photos/3"]').first().click();
      await feed.locator('[role="dialog"]').waitFor();
      expect(await violations(feed)).toEqual([]);
      await feed.context().close();
    });
  });
});
