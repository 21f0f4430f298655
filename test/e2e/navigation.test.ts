/**
 * Soft navigation in Chromium against the production demo.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  chunkOf,
  isDocument,
  isPageData,
  openAt,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
} from './harness';

describe.skipIf(skipWithoutChromium)('soft navigation in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  /**
   * These tests are about navigations that find nothing prefetched, so the page asks to save
   * data (as a browser on a metered connection does), which turns prefetching off.
   */
  const open = (path: string, javaScriptEnabled = true) =>
    openAt(browser, server.url + path, { javaScriptEnabled, saveData: true });

  test('a link click: no document request, one page-data request, root layout state kept', async () => {
    const { page, requests, errors, console } = await open('/');
    // The root layout's own elements are the same nodes after the navigation: never rendered anew.
    await page.evaluate(() => {
      (window as { header?: Element | null }).header = document.querySelector('header');
    });
    await page.locator('header a[href="/docs"]').click();
    await page.waitForURL(`${server.url}/docs`);
    await expect.poll(() => page.locator('h1').first().textContent()).not.toBe('Latest photos');
    expect(
      await page.evaluate(
        () => (window as { header?: Element | null }).header === document.querySelector('header'),
      ),
    ).toBe(true);
    expect(requests.filter(isDocument)).toEqual([]);
    expect(requests.filter(isPageData).map((r) => new URL(r.url()).pathname)).toEqual(['/docs']);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('MAIN');
    expect(await page.locator('#switchyard-announcer').textContent()).toBe(await page.title());
    expect(errors).toEqual([]);
    expect(console).toEqual([]);
  });

  test('back and forward restore pages and scroll positions with no request', async () => {
    const { page, requests } = await open('/');
    await page.evaluate(() => window.scrollTo(0, 900));
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(900);
    // A profile: a photo would open in a modal over the feed, which keeps the feed's scroll.
    const link = page.locator('main a[href^="/u/"]').nth(8);
    await link.scrollIntoViewIfNeeded();
    const feedScroll = await page.evaluate(() => scrollY);
    const href = await link.getAttribute('href');
    await link.click();
    await page.waitForURL(server.url + href!);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 120));
    requests.length = 0;

    await page.goBack();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(feedScroll);
    expect(await page.locator('h1').first().textContent()).toBe('Latest photos');

    await page.goForward();
    await page.waitForURL(server.url + href!);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(120);
    expect(requests.map((r) => r.url())).toEqual([]);
  });

  test('route scripts held past the 3800 ms timeout end in one hard navigation to the target', async () => {
    const { page, requests } = await open('/u/ada');
    const chunk = chunkOf('photos/[id]/page.tsx');
    let held = 0;
    await page.route(`**/${chunk}`, async (route) => {
      if (held++ === 0) return; // the first request never answers
      await route.continue();
    });
    // A fake clock that stands still: only runFor() below moves it.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    const dataDone = page.waitForResponse((r) => isPageData(r.request()));
    const link = page.locator('main a[href^="/photos/"]').first();
    const href = (await link.getAttribute('href'))!;
    await link.click();
    await dataDone;
    // The budget starts once the router has read the data, a moment after the response: with
    // the clock stopped meanwhile, the full load never comes before 3800 ms of it have run.
    await page.clock.runFor(3_799);
    expect(requests.filter(isDocument)).toEqual([]);
    const loaded = page.waitForEvent('load', { timeout: 30_000 });
    for (let ran = 0; ran < 10_000 && !requests.some(isDocument); ran += 100) await page.clock.runFor(100);
    await loaded;
    expect(page.url()).toBe(server.url + href);
    expect(requests.filter(isDocument).map((r) => r.url())).toEqual([server.url + href]);
  });

  test.each([
    ['a page-data 500', { status: 500, contentType: 'text/plain', body: 'upstream exploded' }],
    [
      'a page-data answer that is not JSON',
      { status: 200, contentType: 'text/html', body: '<h1>proxy</h1>' },
    ],
  ])('%s ends in a hard navigation', async (_name, answer) => {
    const { page, requests } = await open('/');
    await page.route(
      (url) => url.searchParams.has('_sy'),
      (route) => route.fulfill(answer),
    );
    const loaded = page.waitForEvent('load');
    await page.locator('header a[href="/docs"]').click();
    await loaded;
    expect(page.url()).toBe(`${server.url}/docs`);
    expect(requests.filter(isDocument).map((r) => r.url())).toEqual([`${server.url}/docs`]);
  });

  test('a build id mismatch (a redeploy) ends in a hard navigation', async () => {
    const { page, requests } = await open('/');
    await page.route(
      (url) => url.searchParams.has('_sy'),
      async (route) => {
        const response = await route.fetch();
        const json = (await response.json()) as { buildId: string };
        await route.fulfill({ response, json: { ...json, buildId: 'next-deploy' } });
      },
    );
    const loaded = page.waitForEvent('load');
    await page.locator('header a[href="/docs"]').click();
    await loaded;
    expect(requests.filter(isDocument).map((r) => r.url())).toEqual([`${server.url}/docs`]);
  });

  test('a newer navigation aborts the older one, which never commits', async () => {
    const { page, requests } = await open('/');
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(`${new URL(r.url()).pathname} ${r.failure()?.errorText}`));
    const photo = await page.locator('main a[href^="/photos/"]').first().getAttribute('href');
    await page.route(
      (url) => url.pathname === photo && url.searchParams.has('_sy'),
      () => {
        // held: this navigation must be overtaken
      },
    );
    const [entries, feedTitle] = [await page.evaluate(() => history.length), await page.title()];
    // Every title the tab shows, however briefly: a committed page would name itself.
    await page.evaluate(() => {
      const titles: string[] = ((window as { titles?: string[] }).titles = [document.title]);
      new MutationObserver(() => {
        if (titles.at(-1) !== document.title) titles.push(document.title);
      }).observe(document.head, { childList: true, subtree: true, characterData: true });
    });
    await page.locator(`main a[href="${photo}"]`).first().click();
    await expect.poll(() => requests.filter(isPageData).length).toBe(1);
    await page.locator('header a[href="/docs"]').click();
    await page.waitForURL(`${server.url}/docs`);
    await expect.poll(() => failed).toEqual([`${photo} net::ERR_ABORTED`]);
    expect(page.url()).toBe(`${server.url}/docs`);
    // The feed, then the docs: the photo page never committed, in history or on screen.
    await expect.poll(() => page.locator('main h1').first().textContent()).not.toBe('Latest photos');
    expect(await page.evaluate(() => history.length)).toBe(entries + 1);
    expect(await page.evaluate(() => (window as { titles?: string[] }).titles)).toEqual([
      feedTitle,
      await page.title(),
    ]);
    expect(requests.filter(isDocument)).toEqual([]);
  });

  test('a typed comment holds a link click and back behind a confirm; a reload gets the browser’s prompt', async () => {
    const { page, errors } = await open('/photos/3');
    const other = page.locator('main .card-link').first();
    const otherHref = await other.getAttribute('href');
    await other.click();
    await page.waitForURL(server.url + otherHref!);
    const textarea = page.locator('.comment-form textarea');
    await textarea.fill('Half a thought');
    const confirm = page.getByRole('alertdialog', { name: 'Leave this page? Your comment is not sent.' });

    // A link: held behind the dialog, which takes focus; Stay keeps the page and the text.
    await page.locator('header a[href="/docs"]').click();
    await confirm.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Stay');
    // Nothing is on its way while the user decides: the held link is not pending.
    expect(await page.locator('header .nav-link-pending').count()).toBe(0);
    await confirm.getByRole('button', { name: 'Stay' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(page.url()).toBe(server.url + otherHref!);
    expect(await textarea.inputValue()).toBe('Half a thought');

    // Back: the address bar is put back while held; Escape stays, Leave makes the back.
    await page.evaluate(() => history.back());
    await confirm.waitFor();
    await expect.poll(() => page.url()).toBe(server.url + otherHref!);
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(page.url()).toBe(server.url + otherHref!);
    await page.evaluate(() => history.back());
    await confirm.getByRole('button', { name: 'Leave' }).click();
    await page.waitForURL(`${server.url}/photos/3`);
    await expect.poll(() => textarea.inputValue()).toBe('');
    // The card's view transition runs back too: the page is read once it has ended (on a busy
    // machine its last frame can come a second or more after the commit).
    await expect
      .poll(() => page.evaluate(() => document.documentElement.hasAttribute('data-navigation')), {
        timeout: 10_000,
      })
      .toBe(false);

    // A reload with text typed gets the browser's own prompt; with none, no prompt.
    const prompts: string[] = [];
    page.on('dialog', (dialog) => {
      prompts.push(dialog.type());
      void dialog.accept();
    });
    await textarea.fill('Another thought');
    await page.reload();
    await waitForHydration(page);
    await page.reload();
    expect(prompts).toEqual(['beforeunload']);
    expect(errors).toEqual([]);
  });

  test('a container marked data-scroll-restore gets its scroll back on back', async () => {
    const { page } = await open('/docs');
    // Short enough that the docs sidebar scrolls on its own.
    await page.setViewportSize({ width: 1000, height: 300 });
    const nav = page.locator('[data-scroll-restore="docs-nav"]');
    await nav.evaluate((element) => element.scrollTo(0, 100));
    await expect.poll(() => nav.evaluate((element) => element.scrollTop)).toBe(100);
    await page.locator('header a[href="/tags"]').click();
    await page.waitForURL(`${server.url}/tags`);
    await page.goBack();
    await page.waitForURL(`${server.url}/docs`);
    await expect.poll(() => nav.evaluate((element) => element.scrollTop)).toBe(100);
  });

  test('modified clicks and new-tab links are left to the browser', async () => {
    const { page, requests } = await open('/');
    const popup = page.context().waitForEvent('page');
    await page.locator('header a[href="/docs"]').click({ modifiers: ['Control'] });
    await (await popup).close();
    expect(page.url()).toBe(`${server.url}/`);
    expect(requests.filter(isPageData)).toEqual([]);
  });

  // About 80 document loads, one after another: a generous bound on a shared machine.
  test('with JavaScript off every link in the demo works by full page loads', async () => {
    const { page } = await open('/', false);
    const hrefs = new Set<string>();
    for (const path of ['/', '/photos/1', '/docs', '/tags']) {
      await page.goto(server.url + path);
      for (const href of await page
        .locator('a[href^="/"]')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href')!))) {
        hrefs.add(href.split('#')[0]!);
      }
    }
    expect(hrefs.size).toBeGreaterThan(20);
    // Each link's document, fetched as the browser would load it (its cookies, a plain GET): the
    // status is what a full page load shows; rendering each in the page would add only time.
    // Four at a time, as a browser's few connections would: all ~80 at once on a loaded machine
    // is a burst the server rightly sheds with 503s.
    const statuses: string[] = [];
    const queue = [...hrefs];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let href = queue.shift(); href !== undefined; href = queue.shift())
          statuses.push(`${href} ${(await page.request.get(server.url + href)).status()}`);
      }),
    );
    statuses.sort((a, b) => [...hrefs].indexOf(a.split(' ')[0]!) - [...hrefs].indexOf(b.split(' ')[0]!));
    expect(statuses).toEqual([...hrefs].map((href) => `${href} 200`));
    await page.goto(`${server.url}/`);
    await page.locator('header a[href="/docs"]').click();
    await page.waitForURL(`${server.url}/docs`);
  }, 120_000);
});
