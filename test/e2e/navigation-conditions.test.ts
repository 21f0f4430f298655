/**
 * Navigation under the conditions real networks and real users make, in Chromium against the
 * production demo: a hung prefetch, scrolling between clicks, failing prefetches, a slow answer,
 * a like under the photo modal, and pages whose title comes late.
 */
import type { Browser, Page, Request, Route } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  chunkOf,
  isDocument,
  isPageData,
  openAt,
  openPage,
  prefetchQueueIdle,
  refreshFromDevtools,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
} from './harness';

/** Requests matching `match` are held until `release()`, then answered; later ones pass at once. */
async function hold(page: Page, match: (url: URL) => boolean) {
  const held: Route[] = [];
  let releasing = false;
  await page.route(match, async (route) => {
    if (releasing) await route.continue();
    else held.push(route);
  });
  return {
    count: () => held.length,
    release: async () => {
      releasing = true;
      await Promise.all(held.map((route) => route.continue()));
    },
  };
}

/**
 * Records, for each React commit, the names of the components that rendered in it, through the
 * hook React calls for its DevTools (in production builds too). A component counts when it ran in
 * that commit: mounted, or rendered again (React's PerformedWork flag, bit 1); a subtree React
 * did not enter keeps its children, and is skipped. A string, so nothing of the test's build
 * reaches the page.
 */
const RECORD_RENDERS = `
  const COMPONENT_TAGS = new Set([0, 1, 11, 14, 15]); // function, class, forwardRef, memo
  const nameOf = (fiber) => {
    const type = fiber.type && fiber.type.type ? fiber.type.type : fiber.type;
    return (type && (type.displayName || type.name)) || '?';
  };
  window.__renders = [];
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject: () => 1,
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id, root) {
      const names = [];
      const stack = [root.current];
      while (stack.length > 0) {
        const fiber = stack.pop();
        const before = fiber.alternate;
        if (COMPONENT_TAGS.has(fiber.tag) && (before === null || (fiber.flags & 1) === 1)) names.push(nameOf(fiber));
        if (before !== null && fiber.child === before.child) continue;
        for (let child = fiber.child; child; child = child.sibling) stack.push(child);
      }
      window.__renders.push(names);
    },
  };
`;

describe.skipIf(skipWithoutChromium)('navigation under real conditions, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  /**
   * A click whose target was prefetched, while part of that prefetch never answers: it must end
   * in a hard navigation once the route-script budget (3800 ms) has passed since the click.
   */
  async function clickWhilePrefetchHangs(hangs: (url: URL) => boolean) {
    const recorded = await openPage(browser);
    const { page } = recorded;
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    let hung = 0;
    let seen!: () => void;
    const asked = new Promise<void>((resolve) => (seen = resolve));
    await page.route(hangs, async (route) => {
      if (hung++ === 0) return seen(); // the prefetch's request: never answered
      await route.continue();
    });
    // The fake clock from the start: installed later, it would put the router's clock back, and
    // the prefetch made before would be from a time to come.
    await page.clock.install();
    await page.goto(`${server.url}/`);
    await waitForHydration(page);
    await asked; // the header's link to /docs is in view: its prefetch has asked
    // A clock that stands still: only runFor() moves it, so no time passes unless we say so.
    await page.clock.pauseAt(Date.now() + 1_000);
    requests.length = 0;
    await page.locator('header a[href="/docs"]').click();
    await page.clock.runFor(3_799);
    expect(requests.filter(isDocument)).toEqual([]);
    expect(page.url()).toBe(`${server.url}/`);
    const loaded = page.waitForEvent('load', { timeout: 10_000 });
    await page.clock.runFor(1);
    await loaded;
    expect(page.url()).toBe(`${server.url}/docs`);
    expect(requests.filter(isDocument).map((r) => r.url())).toEqual([`${server.url}/docs`]);
  }

  test('a route chunk whose request came from a prefetch hangs: a hard navigation 3800 ms after the click', async () => {
    const chunk = chunkOf('docs/[[...slug]]/page.tsx');
    await clickWhilePrefetchHangs((url) => url.pathname.endsWith(`/${chunk}`));
  });

  test('a prefetch whose page data hangs: the same', async () => {
    await clickWhilePrefetchHangs(
      (url) => url.pathname === '/docs' && url.searchParams.get('_syp') === 'auto',
    );
  });

  test('scroll is applied once per commit: no jump before the new page, and back restores both pages', async () => {
    // Prefetching off (a Save-Data browser): every click asks, so the old page can be watched.
    const { page } = await openAt(browser, `${server.url}/`, { saveData: true });
    await page.evaluate(() => window.scrollTo(0, 700));
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(700);
    const profile = page.locator('main a[href^="/u/"]').first();
    const profileHref = (await profile.getAttribute('href'))!;
    // A click that does not scroll the link into view first, as a user's click on a visible link.
    await profile.evaluate((a: HTMLAnchorElement) => a.click());
    await page.waitForURL(server.url + profileHref);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 200));
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(200);

    const docs = await hold(page, (url) => url.pathname === '/docs' && url.searchParams.has('_sy'));
    await page.locator('header a[href="/docs"]').evaluate((a: HTMLAnchorElement) => a.click());
    await expect.poll(() => docs.count()).toBe(1);
    // The navigation is pending: the page the user is reading stays where they left it.
    expect(await page.evaluate(() => scrollY)).toBe(200);
    await docs.release();
    await page.waitForURL(`${server.url}/docs`);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);

    await page.goBack();
    await page.waitForURL(server.url + profileHref);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(200);
    await page.goBack();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(700);
  });

  test('8 visits to the cache lab leave no request open; its failing link is fetched once per entry lifetime', async () => {
    const { page, requests } = await openAt(browser, `${server.url}/`);
    const open = new Set<Request>();
    page.on('request', (r) => open.add(r));
    page.on('requestfinished', (r) => open.delete(r));
    page.on('requestfailed', (r) => open.delete(r));
    for (let visit = 0; visit < 8; visit++) {
      await page.locator('footer a[href="/lab"]').click();
      await page.waitForURL(`${server.url}/lab`);
      await page.locator('main a[href="/cache-lab"]').click();
      await page.waitForURL(`${server.url}/cache-lab`);
      await expect.poll(() => page.locator('main h1').first().textContent()).toBe('Cache lab');
      // Leaving a page cancels its prefetches, and a cancelled one keeps no entry: the first
      // visit lets the failing link's prefetch settle, so its failure is what later visits meet.
      if (visit === 0) await prefetchQueueIdle(page, 20_000);
      await page.locator('header a[href="/"]').first().click();
      await page.waitForURL(`${server.url}/`);
    }
    const failing = requests.filter(
      (r) => isPageData(r) && new URL(r.url()).pathname === '/lab/server-error',
    );
    expect(failing).toHaveLength(1);
    await expect.poll(() => [...open].map((r) => r.url())).toEqual([]);
    expect(requests.filter(isDocument)).toEqual([]);
  });

  /** The feed, hydrated with nothing prefetched, and each React commit's rendered components so far. */
  async function openFeedRecordingRenders() {
    const { page } = await openPage(browser, { saveData: true });
    await page.context().addInitScript({ content: RECORD_RENDERS });
    await page.goto(`${server.url}/`);
    await waitForHydration(page);
    const renders = () => page.evaluate(() => (window as unknown as { __renders: string[][] }).__renders);
    return { page, renders };
  }

  test('a slow navigation shows a progress bar, which goes when the page commits', async () => {
    const { page } = await openAt(browser, `${server.url}/`, { saveData: true });
    const docs = await hold(page, (url) => url.pathname === '/docs' && url.searchParams.has('_sy'));
    await page.locator('header a[href="/docs"]').click();
    await expect.poll(() => docs.count()).toBe(1);
    await expect.poll(() => page.getByRole('progressbar').count()).toBe(1);
    await docs.release();
    await page.waitForURL(`${server.url}/docs`);
    await expect.poll(() => page.getByRole('progressbar').count()).toBe(0);
  });

  test('pending re-renders the progress bar and the clicked link, never the page; only that link is pending', async () => {
    const { page, renders } = await openFeedRecordingRenders();
    // The feed rendered in full at least once: the recorder sees the page's components.
    expect(Math.max(...(await renders()).map((names) => names.length))).toBeGreaterThan(50);
    const before = (await renders()).length;
    const docs = await hold(page, (url) => url.pathname === '/docs' && url.searchParams.has('_sy'));
    await page.locator('header a[href="/docs"]').click();
    await expect.poll(() => docs.count()).toBe(1);
    await expect.poll(() => page.getByRole('progressbar').count()).toBe(1);
    expect(await page.locator('header a[href="/docs"] .nav-link-pending').count()).toBe(1);
    expect(await page.locator('header .nav-link-pending').count()).toBe(1);
    const whilePending = (await renders()).slice(before);
    // The clicked link and its dot, the progress bar (on, then shown), and not the router's root,
    // whose snapshot changes only with the page: names are minified in the production build, so
    // the count says it.
    expect(whilePending.flat().length).toBeLessThanOrEqual(4);

    await docs.release();
    await page.waitForURL(`${server.url}/docs`);
    await expect.poll(() => page.locator('header .nav-link-pending').count()).toBe(0);
  });

  test('a link of text alone does not render again when clicked: only the progress bar does', async () => {
    const { page, renders } = await openFeedRecordingRenders();
    const before = (await renders()).length;
    const author = page.locator('.card-meta a[href^="/u/"]').first();
    const profile = await hold(page, (url) => url.pathname.startsWith('/u/') && url.searchParams.has('_sy'));
    await author.click();
    await expect.poll(() => profile.count()).toBe(1);
    await expect.poll(() => page.getByRole('progressbar').count()).toBe(1);
    // Nothing under the link can read its status, so the link has no state to set: rendering it
    // again would have React copy every card of the grid on the way down to it.
    expect((await renders()).slice(before).flat().length).toBeLessThanOrEqual(2);
    await profile.release();
    await page.waitForURL((url) => url.pathname.startsWith('/u/'));
  });

  test('a like in the photo modal: closing it shows the feed with the new count, with no document request', async () => {
    const { page, requests } = await openAt(browser, `${server.url}/`, { signedInAs: 'noor' });
    const card = page.locator('main li.card').nth(4);
    const href = (await card.locator('a.card-link').getAttribute('href'))!;
    const countOnCard = () => card.locator('.card-meta span').textContent();
    const before = Number.parseInt((await countOnCard())!.replace(/,/g, ''), 10);
    const shown = (n: number) => n.toLocaleString('en-US');
    await card.locator('a.card-link').click();
    await page.waitForURL(server.url + href);
    const dialog = page.getByRole('dialog');
    // The card's commit runs in a view transition, at the browser's next frame: slow under load.
    await expect.poll(() => dialog.count(), { timeout: 10_000 }).toBe(1);
    // The tab names the photo while the modal shows it.
    const photoTitle = (await dialog.locator('h1').textContent())!;
    await expect.poll(() => page.title()).toContain(photoTitle);
    await dialog.getByRole('button', { name: /Like/ }).click();
    await expect.poll(() => dialog.locator('.like-count').textContent()).toBe(shown(before + 1));
    await expect
      .poll(() => dialog.getByRole('button', { name: /Like/ }).getAttribute('aria-pressed'))
      .toBe('true');
    // A refresh keeps focus in the dialog.
    await refreshFromDevtools(page);
    await expect
      .poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]')))
      .toBe(true);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(countOnCard).toBe(`${shown(before + 1)} likes`);
    expect(requests.filter(isDocument)).toEqual([]);
  });

  test('the live region reads the title of a page behind a loading state, once it arrives', async () => {
    const { page } = await openAt(browser, `${server.url}/lab`, { saveData: true });
    // Every title the tab shows, however briefly.
    await page.evaluate(() => {
      const titles: string[] = ((window as { titles?: string[] }).titles = []);
      new MutationObserver(() => {
        if (titles.at(-1) !== document.title) titles.push(document.title);
      }).observe(document.head, { childList: true, subtree: true, characterData: true });
    });
    await page.locator('main a[href="/lab/slow"]').click();
    await page.waitForURL(`${server.url}/lab/slow`);
    await expect
      .poll(() => page.locator('#switchyard-announcer').textContent(), { timeout: 10_000 })
      .toBe('Slow data · Switchyard');
    // Never an empty title: the loading state names itself until the page's title arrives.
    expect(await page.evaluate(() => (window as { titles?: string[] }).titles)).toEqual([
      'Loading… · Switchyard',
      'Slow data · Switchyard',
    ]);
  });
});
