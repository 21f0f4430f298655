/**
 * Boundaries, redirects and the fallback messages in Chromium against the production demo.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SERVER_ERROR_MESSAGE } from '../../shared/error-messages';
import { CLIENT_ERROR_MESSAGE } from '../../shared/fallback-page';
import {
  isDocument,
  openAt,
  openPage,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
} from './harness';

describe.skipIf(skipWithoutChromium)('boundaries in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  /** A hydrated page, with prefetching off (Save-Data) so that each click fetches for itself. */
  const open = (path: string) => openAt(browser, server.url + path, { saveData: true });

  test('a render error nothing catches: exactly the client-side message', async () => {
    const { page, errors } = await open('/lab/client-error');
    await page.locator('#break').click();
    await expect.poll(() => page.locator('h1').first().textContent()).toBe(CLIENT_ERROR_MESSAGE);
    expect(await page.locator('body').innerText()).not.toContain('Digest');
    expect(await page.locator('body').innerText()).not.toContain('lab asked');
    expect(errors).toEqual([]);
  });

  test('a server error: exactly the server-side message and the digest the server logged', async () => {
    const { page } = await openPage(browser);
    const response = await page.goto(`${server.url}/lab/server-error`);
    expect(response!.status()).toBe(500);
    expect(await page.locator('h1').textContent()).toBe(SERVER_ERROR_MESSAGE);
    const shown = /^Digest: ([0-9a-f]+)$/.exec(await page.locator('p').first().innerText())?.[1];
    expect(shown).toMatch(/^[0-9a-f]{10}$/);
    expect(server.logs.join('')).toContain(`GET /lab/server-error failed, digest ${shown}`);
    expect(await page.content()).not.toContain('lab asked');
  });

  test('error.tsx catches a render error of its segment, and its retry renders the page again', async () => {
    const { page, errors } = await open('/lab/caught-error');
    await page.locator('#break').click();
    await expect.poll(() => page.locator('#caught-message').textContent()).toContain('caught-error');
    // Only the segment failed: the site header is still there and works.
    expect(await page.locator('header a[href="/docs"]').count()).toBe(1);
    await page.locator('#retry').click();
    await expect.poll(() => page.locator('#caught-error-page').count()).toBe(1);
    expect(await page.locator('#break').isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  test('a loader error under error.tsx: its fallback inside the site layout, a 500, hydrated cleanly', async () => {
    const { page, errors, console } = await openPage(browser);
    const response = await page.goto(`${server.url}/lab/load-error`);
    expect(response!.status()).toBe(500);
    expect(await page.locator('#load-error-heading').textContent()).toContain('could not be loaded');
    const shown = /^Digest: ([0-9a-f]{10})$/.exec(await page.locator('#load-error-message').innerText())?.[1];
    expect(server.logs.join('')).toContain(`GET /lab/load-error load failed, digest ${shown}`);
    // The root layout is around it: the header and its links are there.
    expect(await page.locator('header a[href="/docs"]').count()).toBe(1);
    expect(await page.content()).not.toContain('lab asked');
    await waitForHydration(page);
    expect(await page.locator('#load-error-heading').count()).toBe(1);
    expect(errors).toEqual([]);
    expect(console.filter((line) => !line.includes('500'))).toEqual([]);
  });

  test('not found on a soft navigation: the not-found page, no document request', async () => {
    const { page, requests } = await open('/lab');
    await page.locator('main a[href="/photos/9999"]').click();
    await page.waitForURL(`${server.url}/photos/9999`);
    await expect.poll(() => page.locator('main h1').first().textContent()).toBe('We couldn’t find that page');
    expect(requests.filter(isDocument)).toEqual([]);
  });

  test('a redirect on a soft navigation: the target, replacing the redirecting URL', async () => {
    const { page, requests } = await open('/lab');
    await page.locator('main a[href="/lab/redirect"]').click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('Latest photos');
    expect(requests.filter(isDocument)).toEqual([]);
    // The redirecting URL never became a history entry: back is the lab.
    await page.goBack();
    await page.waitForURL(`${server.url}/lab`);
  });

  test('a short link is a 308 to the photo; a hostile redirect target is a 400', async () => {
    const { page } = await openPage(browser);
    const response = await page.goto(`${server.url}/p/7`);
    expect(page.url()).toBe(`${server.url}/photos/7`);
    expect(response!.request().redirectedFrom()?.url()).toBe(`${server.url}/p/7`);
    const refused = await page.goto(`${server.url}/lab/redirect?to=${encodeURIComponent('//evil.example')}`);
    expect(refused!.status()).toBe(400);
  });

  test('/lab/slow paints its loading state before the data arrives', async () => {
    const { page, errors, console } = await openPage(browser);
    // Records, in the page, when each element was first painted (a frame after it appeared).
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __seen: string[] }).__seen = seen;
      new MutationObserver(() => {
        for (const id of ['slow-loading', 'slow-data']) {
          if (!seen.includes(id) && document.getElementById(id)) {
            seen.push(id);
            requestAnimationFrame(() => seen.push(`${id} painted`));
          }
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${server.url}/lab/slow?delay=1000`);
    await page.locator('#slow-data').waitFor();
    await waitForHydration(page);
    const seen = await page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
    expect(seen.indexOf('slow-loading painted')).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf('slow-loading painted')).toBeLessThan(seen.indexOf('slow-data'));
    expect(await page.locator('#slow-loading').count()).toBe(0);
    expect(errors).toEqual([]);
    expect(console).toEqual([]);
  });
});
