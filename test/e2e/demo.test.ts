import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  openPage,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
} from './harness';
import { BUILDS } from './global-setup';

describe.skipIf(skipWithoutChromium)('demo in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  test('the feed loads, hydrates, and logs no errors or hydration warnings', async () => {
    const { page, console, errors, requests } = await openPage(browser);
    const response = await page.goto(`${server.url}/`);
    expect(response!.status()).toBe(200);
    await waitForHydration(page);
    expect(await page.locator('main a[href^="/photos/"]').count()).toBeGreaterThanOrEqual(30);
    expect(await page.title()).toContain('Feed');
    // Styles arrive with the document, not after hydration.
    expect(await page.locator('head link[rel="stylesheet"]').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    expect(console).toEqual([]);
    // Every script the page ran came from our server.
    expect(requests.filter((r) => !r.includes(server.url) && !r.includes('data:'))).toEqual([]);
  });

  test.each(['/photos/3', '/u/ada', '/tags/nature', '/docs', '/docs/routing'])(
    '%s renders and hydrates cleanly',
    async (path) => {
      const { page, console, errors } = await openPage(browser);
      const response = await page.goto(`${server.url}${path}`);
      expect(response!.status()).toBe(200);
      await waitForHydration(page);
      expect(await page.locator('h1').count()).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      expect(console).toEqual([]);
    },
  );

  test.each(['/tags/nature%2Ftrees', '/tags/nature%2ftrees'])(
    '%s is one segment, which names no tag: a 404 that hydrates cleanly',
    async (path) => {
      const { page, console, errors } = await openPage(browser);
      const response = await page.goto(`${server.url}${path}`);
      expect(response!.status()).toBe(404);
      await waitForHydration(page);
      expect(await page.locator('h1').first().textContent()).not.toContain('nature/trees');
      expect(errors).toEqual([]);
      expect(console.filter((message) => !message.startsWith('error: 404 for'))).toEqual([]);
    },
  );

  test('the lab refreshes a page: its data loaded again, what was typed kept, no document request', async () => {
    const { page, console, errors } = await openPage(browser);
    await page.goto(`${server.url}/lab/refresh`);
    await waitForHydration(page);
    const loads = async () =>
      Number(/Loaded (\d+)/.exec((await page.locator('#refresh-loads').textContent())!)![1]);
    const before = await loads();
    const documents: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'document') documents.push(r.url());
    });
    await page.locator('#refresh-note').fill('kept');
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(loads).toBe(before + 1);
    expect(await page.locator('#refresh-note').inputValue()).toBe('kept');
    expect(documents).toEqual([]);
    expect(errors).toEqual([]);
    expect(console).toEqual([]);
  });

  test("the demo's public files are served at the root path, from src/public", async () => {
    const icon = await fetch(`${server.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/vnd.microsoft.icon');
    expect(icon.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    expect(Buffer.from(await icon.arrayBuffer())).toEqual(readFileSync('src/public/favicon.ico'));
    // Every page names its icon inline, so no browser asks for /favicon.ico, or anything, for it.
    expect(await (await fetch(`${server.url}/`)).text()).toContain(
      '<link rel="icon" href="data:image/svg+xml,',
    );
    const robots = await fetch(`${server.url}/robots.txt`);
    expect(robots.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await robots.text()).toBe(readFileSync('src/public/robots.txt', 'utf8'));
  });

  test('route handlers: /api/photos/<id> answers JSON with the likes, an unknown id a JSON 404', async () => {
    const res = await fetch(`${server.url}/api/photos/1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ id: '1', likes: expect.any(Number), art: '/api/photos/1/art' });
    const missing = await fetch(`${server.url}/api/photos/99999`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'There is no photo with this id.' });
    // Route files are the server's alone: the client build holds none of them.
    const manifest = readFileSync(join(BUILDS.demo.out, 'client/.vite/manifest.json'), 'utf8');
    expect(manifest).not.toContain('route.ts');
  });

  test("a photo page's og:image is its art, drawn as a cacheable SVG file", async () => {
    const html = await (await fetch(`${server.url}/photos/3`)).text();
    expect(html).toContain('<meta property="og:image" content="/api/photos/3/art"/>');
    const art = await fetch(`${server.url}/api/photos/3/art`);
    expect(art.headers.get('content-type')).toBe('image/svg+xml');
    expect(art.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(await art.text()).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="1200" height="900"/,
    );
  });

  test('an unknown photo is a 404 page inside the site layout', async () => {
    const { page } = await openPage(browser);
    const response = await page.goto(`${server.url}/photos/99999`);
    expect(response!.status()).toBe(404);
    expect(await page.locator('header a[href="/docs"]').count()).toBe(1);
  });
});
