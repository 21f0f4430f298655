/**
 * axe-core on every page of the demo, at a desktop and a phone size, with JavaScript on and in
 * the error states: no serious or critical violation anywhere. Each page is also
 * photographed at both sizes, in the same visit, into the git-ignored `.switchyard/screenshots/`,
 * so a change to how pages look can be seen, not guessed; a visitor page's console stays clean.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  serveWithChromium,
  signInAs,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
} from './harness';

const SCREENSHOTS = join(process.env.E2E_BUILD_ROOT ?? '.switchyard', 'screenshots');

/**
 * The whole page as it looks now, as `<name>.jpg` in the screenshots folder: JPEG, because a
 * long page is ten thousand pixels tall, over a megabyte as PNG.
 */
async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({
    path: join(SCREENSHOTS, `${name}.jpg`),
    type: 'jpeg',
    quality: 80,
    fullPage: true,
  });
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
/** Every docs page, as its path after `/docs`: `''` for the index. */
const DOCS = readdirSync('docs')
  .filter((file) => file.endsWith('.md'))
  .map((file) => (file === 'index.md' ? '' : `/${file.slice(0, -'.md'.length)}`))
  .sort();
/** Pages that hydrate; the docs pages are checked apart. Photo 3 has no comments, 36 has some. */
const PAGES = [
  '/',
  '/photos/3',
  '/photos/36',
  '/u/ada',
  '/tags',
  '/tags/nature',
  '/lab',
  '/lab/slow?delay=0',
  '/lab/refresh',
  '/lab/caught-error',
  '/lab/client-error',
  '/lab/load-error',
  '/photos/9999',
  '/sign-in?next=%2Fme',
];
/** Pages seen signed in, as the demo's user noor. */
const SIGNED_IN = ['/me', '/photos/5'];
/** Pages the server answers on its own: no app, nothing to hydrate. */
const BARE = ['/lab/server-error', `/lab/redirect?to=${encodeURIComponent('//evil.example')}`];

/** A file name for a page at a size: `/tags/nature` at 390 × 844 is `tags-nature-390x844`. */
function shotName(path: string, size: { width: number; height: number }): string {
  const words = path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '');
  return `${words || 'feed'}-${size.width}x${size.height}`;
}

/**
 * The serious and critical violations on the page as it is now, one line each. axe is in every
 * document already (each context adds it as an init script), and reports violations only.
 */
async function violations(page: Page): Promise<string[]> {
  const found = await page.evaluate(async () => {
    interface AxeViolation {
      id: string;
      impact: string | null;
      nodes: { target: unknown[] }[];
    }
    interface Axe {
      run(context: Document, options: { resultTypes: string[] }): Promise<{ violations: AxeViolation[] }>;
    }
    const axe = (window as unknown as { axe: Axe }).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
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

  describe.each(SIZES)('at $width×$height', (size) => {
    // One context per size, axe added to each of its documents once; a page per test.
    let context: BrowserContext;
    beforeAll(async () => {
      context = await browser.newContext({ viewport: size });
      await context.addInitScript({ content: AXE });
    });
    afterAll(() => context.close());

    const open = async (path: string, hydrates = true) => {
      const page = await context.newPage();
      await page.goto(server.url + path);
      if (hydrates) await waitForHydration(page);
      return page;
    };

    /**
     * One visit: axe, a screenshot, and the console, which holds no error, no failed request
     * but the page's own status (a 404 page's 404) and no uncaught exception.
     */
    const visit = async (on: BrowserContext, path: string) => {
      const page = await on.newPage();
      const console: string[] = [];
      page.on('console', (msg) => {
        // Failed loads are recorded below with their URL, which this message lacks.
        if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
          console.push(msg.text());
      });
      page.on('pageerror', (error) => console.push(error.message));
      page.on('response', (res) => {
        if (res.status() >= 400) console.push(`${res.status()} for ${new URL(res.url()).pathname}`);
      });
      const response = await page.goto(server.url + path);
      await waitForHydration(page);
      await screenshot(page, shotName(path, size));
      expect(await violations(page)).toEqual([]);
      const own = `${response!.status()} for ${new URL(server.url + path).pathname}`;
      expect(console.filter((line) => line !== own)).toEqual([]);
      await page.close();
    };

    // Concurrently (up to Vitest's five at a time): each visit waits on the server and on
    // Chromium's renderer more than on this process.
    test.concurrent.each(PAGES)('%s', (path) => visit(context, path));

    test(`signed in: ${SIGNED_IN.join(', ')}`, async () => {
      const signedIn = await browser.newContext({ viewport: size });
      await signedIn.addInitScript({ content: AXE });
      const page = await signedIn.newPage();
      await signInAs(page, server.url, 'noor');
      await page.close();
      for (const path of SIGNED_IN) await visit(signedIn, path);
      await signedIn.close();
    });

    // The longest docs pages (a thousand lines of tables) take axe and the photograph 15 s on
    // the 2-core machine with four others at once, over twice that while the unit tests share it.
    test.concurrent.each(DOCS)(
      '/docs%s, and its screenshot',
      async (slug) => {
        const page = await open(`/docs${slug}`);
        await screenshot(page, `docs${slug.replace('/', '-') || '-index'}-${size.width}x${size.height}`);
        expect(await violations(page)).toEqual([]);
        await page.close();
      },
      120_000,
    );

    test.concurrent.each(BARE)('%s (the server’s own page)', async (path) => {
      const page = await open(path, false);
      await screenshot(page, shotName(path, size));
      expect(await violations(page)).toEqual([]);
      await page.close();
    });

    test('the header says where you are, buttons look like the site, small links are big enough', async () => {
      const page = await open('/docs/routing');
      expect(await page.locator('.nav-list a[aria-current="page"]').allTextContents()).toEqual(['Docs']);
      // A soft navigation moves it.
      await page.locator('.nav-list a[href="/tags"]').click();
      await expect
        .poll(() => page.locator('.nav-list a[aria-current="page"]').allTextContents())
        .toEqual(['Tags']);
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
      // The confirm before leaving a typed comment, open.
      const textarea = page.locator('.comment-form textarea');
      await textarea.fill('Half a thought');
      await page.locator('.nav-list a[href="/tags"]').click();
      await page.getByRole('alertdialog').waitFor();
      expect(await violations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await textarea.fill('');
      await page.goto(`${server.url}/`);
      const handle = await page.locator('.card-meta a').first().boundingBox();
      expect(handle!.height).toBeGreaterThanOrEqual(24);
      // The brand keeps off the top edge of the screen.
      expect((await page.locator('.brand').boundingBox())!.y).toBeGreaterThanOrEqual(8);
      await page.close();
    });

    test('error states: a caught error, the app-wide fallback, and the photo modal', async () => {
      const caught = await open('/lab/caught-error');
      await caught.locator('#break').click();
      await caught.locator('#caught-message').waitFor();
      await screenshot(caught, shotName('/lab/caught-error caught', size));
      expect(await violations(caught)).toEqual([]);
      await caught.close();

      const fallback = await open('/lab/client-error');
      await fallback.locator('#break').click();
      await fallback.getByText('Application error').waitFor();
      await screenshot(fallback, shotName('/lab/client-error fallback', size));
      expect(await violations(fallback)).toEqual([]);
      await fallback.close();

      const feed = await open('/');
      await feed.locator('main a[href="/photos/3"]').first().click();
      await feed.locator('[role="dialog"]').waitFor();
      await screenshot(feed, shotName('/photos/3 modal', size));
      expect(await violations(feed)).toEqual([]);
      await feed.close();
    });
  });
});
