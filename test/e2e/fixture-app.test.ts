import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { load as loadRich } from '../fixtures/basic/lab/rich/[n]/page.server';
import { describe as describeData } from '../fixtures/basic/lab/rich/describe';
import { load as loadRichLayout } from '../fixtures/basic/lab/rich/layout.server';
import { BUILDS } from './global-setup';
import {
  devtoolsSnapshot,
  openPage,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
} from './harness';

describe.skipIf(skipWithoutChromium)('fixture app in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('basic', (s, b) => {
    [server, browser] = [s, b];
  });

  test('hostile loader data hydrates byte-exactly and never executes', async () => {
    const { page, console, errors } = await openPage(browser);
    await page.goto(`${server.url}/lab/secret`);
    await waitForHydration(page);
    const result = await page.evaluate(() => ({
      pwned: (window as { __pwned?: number }).__pwned,
      text: document.getElementById('payload')!.textContent,
      state: (window.__SWITCHYARD__!.segments.at(-1)!.pageData as { payload: string }).payload,
    }));
    const expected = '</script><script>window.__pwned=1</script><!-- \u2028\u2029\u0000 end';
    expect(result.pwned).toBeUndefined();
    expect(result.state).toBe(expected);
    // The HTML parser drops NUL from text (React's hydration allows for it); the state keeps it.
    expect(result.text).toBe(expected.replace('\u0000', ''));
    expect(errors).toEqual([]);
    expect(console).toEqual([]);
  });

  test('rich loader data hydrates without an error and reads the same after a soft and a prefetched navigation', async () => {
    // What the server renders, computed here from the same loaders: the browser must show it too.
    const { n: _n, author: _a, again: _g, loop: _l, ...rest } = loadRich({ params: { n: '1' } } as never);
    const expected = {
      layout: describeData(loadRichLayout()),
      page: describeData(rest),
      identity: 'one author, a loop',
    };
    expect(expected.page).toContain('at: Date 2026-01-02T03:04:05.006Z');
    expect(expected.page).toContain('big: BigInt 18446744073709551616 (+1 = 18446744073709551617)');
    expect(expected.page).toContain('limits: Array(3) [number Infinity, number -Infinity, number -0]');
    const { page, console, errors } = await openPage(browser);
    const shown = () =>
      page.evaluate(() => ({
        layout: document.getElementById('rich-layout')!.textContent,
        page: document.getElementById('rich-page')!.textContent,
        identity: document.getElementById('rich-identity')!.textContent,
      }));
    const isPageDataOf = (path: string) => (url: URL) => url.pathname === path && url.searchParams.has('_sy');

    await page.goto(`${server.url}/lab/rich/1`);
    await waitForHydration(page);
    expect(await shown()).toEqual(expected);

    // A soft navigation with no prefetch: its own page-data request. The page it shows has a
    // link ten on in view, which it prefetches.
    const data2 = page.waitForResponse((r) => isPageDataOf('/lab/rich/2')(new URL(r.url())));
    const prefetch12 = page.waitForResponse((r) => isPageDataOf('/lab/rich/12')(new URL(r.url())));
    await page.click('#rich-next');
    expect((await data2).status()).toBe(200);
    await page.locator('h1', { hasText: 'Rich 2' }).waitFor();
    expect(await shown()).toEqual(expected);

    // Clicking the prefetched link then asks for nothing.
    expect((await prefetch12).status()).toBe(200);
    const afterPrefetch: string[] = [];
    page.on('request', (r) => afterPrefetch.push(r.url()));
    await page.click('#rich-prefetched');
    await page.locator('h1', { hasText: 'Rich 12' }).waitFor();
    expect(await shown()).toEqual(expected);
    expect(afterPrefetch.filter((url) => isPageDataOf('/lab/rich/12')(new URL(url)))).toEqual([]);

    expect(errors).toEqual([]);
    expect(console).toEqual([]);
  });

  /** Lets the fixture's waiting loaders go on (test/fixtures/basic/signals/gate.ts); how many. */
  const release = async () => {
    const html = await (await fetch(`${server.url}/signals/release`)).text();
    return /<p id="released">(\d+)<\/p>/.exec(html)?.[1];
  };

  test('streamed data arrives and hydrates; notFound() after the shell shows the not-found page', async () => {
    const { page, errors } = await openPage(browser);
    await page.goto(`${server.url}/signals/late`);
    await page.locator('#late-data').waitFor();
    // The loader signals once the browser shows the loading state: after the shell, always.
    await page.goto(`${server.url}/signals/late?then=not-found`, { waitUntil: 'commit' });
    await page.locator('#late-loading').waitFor();
    expect(await release()).toBe('1');
    await page.locator('h1', { hasText: 'Fixture not found' }).waitFor();
    expect(await page.locator('#late-loading').count()).toBe(0);
    expect(await page.locator('meta[name="robots"][content="noindex"]').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  test('a head from streamed data joins after hydration, once the data is there', async () => {
    const { page, errors, console } = await openPage(browser);
    const description = page.locator('meta[name="description"]');
    await page.goto(`${server.url}/signals/late?then=data`, { waitUntil: 'commit' });
    await page.locator('#late-loading').waitFor();
    await waitForHydration(page);
    // The document's head went out before the data: hydration renders it the same, without it.
    expect(await description.count()).toBe(0);
    expect(await release()).toBe('1');
    await page.locator('#late-data').waitFor();
    await expect.poll(() => description.count()).toBe(1);
    expect(await description.getAttribute('content')).toBe('late data');
    expect(errors).toEqual([]);
    expect(console).toEqual([]);
  });

  test('redirect() after the shell: the client router follows it, before the meta refresh would', async () => {
    const { page } = await openPage(browser);
    const documents: string[] = [];
    page.on('request', (r) => r.resourceType() === 'document' && documents.push(new URL(r.url()).pathname));
    const pageData: string[] = [];
    page.on(
      'request',
      (r) => new URL(r.url()).searchParams.has('_sy') && pageData.push(new URL(r.url()).pathname),
    );
    await page.goto(`${server.url}/signals/late?then=redirect`, { waitUntil: 'commit' });
    await page.locator('#late-loading').waitFor();
    expect(await release()).toBe('1');
    // `window.stop()` (which cancels the meta refresh) means the document's load may never end.
    await page.waitForURL(`${server.url}/photos/5`, { waitUntil: 'commit' });
    await page.locator('h1', { hasText: 'Photo' }).waitFor();
    // A soft navigation (page data), not the browser following the refresh (a document).
    expect(pageData).toContain('/photos/5');
    expect(documents).toEqual(['/signals/late']);
  });

  test('a secret from a .server.ts file is absent from every client asset', () => {
    const dir = join(BUILDS.basic.out, 'client');
    const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) {
      expect(readFileSync(join(file.parentPath, file.name), 'utf8')).not.toContain('SY_SECRET_7f3a9c1e');
    }
    // …while the server bundle does have it, so the search above would have found it.
    const server = readdirSync(join(BUILDS.basic.out, 'server'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
      .join('');
    expect(server).toContain('SY_SECRET_7f3a9c1e');
  });

  test('the production server bundle never imports vite', () => {
    const dir = join(BUILDS.basic.out, 'server');
    const code = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.js'))
      .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
      .join('\n');
    expect(code).toContain('from "react-dom/server"');
    expect(code).not.toMatch(/from ["']vite["']|import\(["']vite["']\)/);
  });

  test('hashed assets are immutable; the document is never cached', async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const asset = /src="(\/assets\/entry-[^"]+\.js)"/.exec(html)![1]!;
    const res = await fetch(server.url + asset);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${server.url}/`)).headers.get('cache-control')).toBe('no-store');
  });

  test('the windows of the app config reach the prefetch cache (test/fixtures/basic/switchyard.config.json)', async () => {
    const { page } = await openPage(browser);
    await page.clock.install();
    await page.goto(`${server.url}/`);
    await waitForHydration(page);
    const entry = async () => (await devtoolsSnapshot(page)).entries[0] ?? null;
    await expect.poll(entry).toMatchObject({ key: '/photos/1', kind: 'auto', status: 'fresh' });
    // Fresh for 10 s, not the default 30 s; stale until 60 s, not 300 s.
    expect((await entry())!.nextChangeIn).toBeLessThanOrEqual(10_000);
    await page.clock.fastForward(10_000);
    expect((await entry())!.status).toBe('stale');
    await page.clock.fastForward(50_000);
    expect((await entry())!.status).toBe('expired');
  });
});
