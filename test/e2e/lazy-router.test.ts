/**
 * The router's navigation code loads after the first paint, in a chunk of its own: the
 * document does not ask for it, a click while it is still on its way navigates softly once it
 * arrives, and a click when it cannot load is a full page load, never a dead link.
 */
import type { Browser, Request, Route } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  chunkOf,
  isDocument,
  isPageData,
  openPage,
  serveWithChromium,
  skipWithoutChromium,
  type RunningServer,
} from './harness';

describe.skipIf(skipWithoutChromium)('the router loaded after the first paint', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  const routerChunk = () => chunkOf('client/start-router.ts', '');

  /** The feed, hydrated, with the router's chunk answered by `handle`; prefetching off (Save-Data). */
  async function openWithRouterChunk(handle: (route: Route) => void) {
    const recorded = await openPage(browser, { saveData: true });
    const requests: Request[] = [];
    recorded.page.on('request', (r) => requests.push(r));
    await recorded.page.route(`**/${routerChunk()}`, handle);
    await recorded.page.goto(`${server.url}/`);
    await recorded.page.waitForFunction(() => document.documentElement.dataset.hydrated !== undefined);
    return { ...recorded, requests };
  }

  test('the document neither loads nor preloads it; the page asks for it once', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    expect(html).toContain('/assets/entry-');
    expect(html).not.toContain(routerChunk());
    const { page, requests } = await openWithRouterChunk((route) => void route.continue());
    await page.waitForFunction(() => document.documentElement.dataset.router === 'ready');
    expect(requests.filter((r) => r.url().endsWith(routerChunk()))).toHaveLength(1);
  });

  test('a click while the chunk is on its way navigates softly once it arrives', async () => {
    const held: Route[] = [];
    const { page, requests, errors } = await openWithRouterChunk((route) => void held.push(route));
    await expect.poll(() => held.length).toBe(1);
    const start = requests.length;
    await page.locator('header a[href="/docs"]').click();
    expect(new URL(page.url()).pathname).toBe('/');
    await held[0]!.continue();
    await page.waitForURL(`${server.url}/docs`);
    await expect.poll(() => page.locator('h1').first().textContent()).not.toBe('Latest photos');
    const after = requests.slice(start);
    expect(after.filter(isDocument)).toEqual([]);
    expect(after.filter(isPageData).map((r) => new URL(r.url()).pathname)).toEqual(['/docs']);
    expect(errors).toEqual([]);
  });

  test('when the chunk cannot load, a click is a full page load of the target', async () => {
    const { page, requests, console } = await openWithRouterChunk((route) => void route.abort());
    await expect
      .poll(() => console.some((line) => line.includes('switchyard: the router did not load')))
      .toBe(true);
    const start = requests.length;
    await page.locator('header a[href="/docs"]').click();
    await page.waitForURL(`${server.url}/docs`);
    await page.waitForLoadState('load');
    expect(
      requests
        .slice(start)
        .filter(isDocument)
        .map((r) => r.url()),
    ).toEqual([`${server.url}/docs`]);
  });
});
