/**
 * A path that starts with `//` in Chromium: the page is this site's 404, and it hydrates (the
 * router's history entry is this path with one leading slash, never a URL on the host the
 * path seems to name).
 */
import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  openPage,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
} from './harness';

describe.skipIf(skipWithoutChromium)('URLs in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('basic', (s, b) => {
    server = s;
    browser = b;
  });

  test('//evil.example/photos/1 is a 404 here that hydrates without an error', async () => {
    const { page, errors, console: messages } = await openPage(browser);
    const res = await page.goto(`${server.url}//evil.example/photos/1`);
    expect(res?.status()).toBe(404);
    await waitForHydration(page);
    expect(errors).toEqual([]);
    expect(messages.filter((m) => !m.startsWith('error: 404 for'))).toEqual([]);
    expect(new URL(page.url()).host).toBe(new URL(server.url).host);
  });
});
