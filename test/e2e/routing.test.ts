/**
 * Route shapes from Next.js's own test apps, on soft navigations in Chromium (the routing
 * fixture): a static interceptor beside a dynamic one, slots with no match and no default,
 * and a change of search params alone on a page that intercepts its own path.
 */
import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  isDocument,
  openAt,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
} from './harness';

describe.skipIf(skipWithoutChromium)('routing fixture in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('routing', (s, b) => {
    [server, browser] = [s, b];
  });

  test('the static interceptor wins over the dynamic one, as the static route does', async () => {
    const { page, requests, errors } = await openAt(browser, `${server.url}/blog`);
    await page.locator('#to-test').click();
    await page.waitForURL(`${server.url}/blog/test`);
    await expect.poll(() => page.locator('#intercepted').textContent()).toBe('static interceptor');
    expect(await page.locator('main h1').textContent()).toBe('Blog');
    // From under the open modal, another post goes to the dynamic interceptor.
    await page.locator('#to-other').click();
    await expect.poll(() => page.locator('#intercepted').textContent()).toBe('dynamic interceptor other');
    expect(requests.filter(isDocument)).toEqual([]);
    // A document load is never intercepted.
    await page.goto(`${server.url}/blog/test`);
    expect(await page.locator('main h1').textContent()).toBe('Blog test page');
    expect(await page.locator('#intercepted').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  test('a slot with no match keeps what it showed on a soft navigation; a document is a 404', async () => {
    const { page, requests, errors } = await openAt(browser, `${server.url}/ptb`);
    await page.locator('#to-view-duration').click();
    await page.locator('#view-duration').waitFor();
    expect(page.url()).toBe(`${server.url}/ptb/view-duration`);
    // @audience has nothing at this URL and no default.tsx: it keeps its page.
    expect(await page.locator('#audience-home').count()).toBe(1);
    // The layout's children have no page here either: they keep theirs too, not the default.
    expect(await page.locator('#home').count()).toBe(1);
    expect(await page.locator('#children-default').count()).toBe(0);
    await page.locator('#to-demographics').click();
    await page.locator('#demographics').waitFor();
    // Now @views keeps the page it was given on the navigation before.
    expect(await page.locator('#view-duration').count()).toBe(1);
    await page.locator('#to-home').click();
    // The children kept #home all along: wait for what only /ptb itself brings back.
    await page.locator('#views-home').waitFor();
    expect(page.url()).toBe(`${server.url}/ptb`);
    expect(await page.locator('#home').count()).toBe(1);
    expect(await page.locator('#audience-home').count()).toBe(1);
    expect(requests.filter(isDocument)).toEqual([]);
    expect(errors).toEqual([]);
    const hard = await page.goto(`${server.url}/ptb/view-duration`);
    expect(hard!.status()).toBe(404);
  });

  test('a slot with a nested layout, and a slot whose page is in a group, on a soft navigation', async () => {
    const { page, requests, errors } = await openAt(browser, `${server.url}/nested`);
    expect(await page.locator('#groupslot-page').count()).toBe(1);
    await page.locator('#to-subroute').click();
    await page.locator('#subroute-layout #subroute').waitFor();
    expect(await page.locator('#groupslot-page').count()).toBe(1);
    expect(await page.locator('#nested-home').count()).toBe(1);
    expect(requests.filter(isDocument)).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('children with no page where only a slot matches: their default on a document, kept on a soft navigation', async () => {
    const { page, requests, errors } = await openAt(browser, `${server.url}/tabs/settings`);
    expect(await page.locator('#tabs-default').count()).toBe(1);
    expect(await page.locator('#panel-settings').count()).toBe(1);
    // No default.tsx for the children: kept on a soft navigation, a 404 document otherwise.
    await page.goto(`${server.url}/bare`);
    await waitForHydration(page); // a click before it would be a plain link's full load
    await page.locator('#to-settings').click();
    await page.locator('#panel-settings').waitFor();
    expect(await page.locator('#bare-home').count()).toBe(1);
    expect(requests.filter(isDocument).map((r) => new URL(r.url()).pathname)).toEqual(['/bare']);
    expect(errors).toEqual([]);
    expect((await page.goto(`${server.url}/bare/settings`))!.status()).toBe(404);
  });

  test('from a page that never showed the slot there is nothing to keep: the 404 document', async () => {
    const { page, requests } = await openAt(browser, `${server.url}/`);
    await page.locator('#root-to-view-duration').click();
    await page.waitForURL(`${server.url}/ptb/view-duration`);
    await expect
      .poll(() => requests.filter(isDocument).map((r) => new URL(r.url()).pathname))
      .toEqual(['/ptb/view-duration']);
    await expect.poll(() => page.locator('body').textContent()).toContain('could not be found');
  });

  test('only the search params change: the page stays and takes them, not intercepted', async () => {
    const { page, requests, errors } = await openAt(browser, `${server.url}/isp/search`);
    await page.locator('#to-query').click();
    await page.waitForURL(`${server.url}/isp/search?q=test`);
    await expect.poll(() => page.locator('#query').textContent()).toBe('q=test');
    expect(await page.locator('#search-modal').count()).toBe(0);
    expect(await page.locator('main h1').textContent()).toBe('Search page');
    expect(requests.filter(isDocument)).toEqual([]);
    // Another pathname in the scope is intercepted, so the rule above is the pathname's.
    await page.goto(`${server.url}/isp`);
    await waitForHydration(page); // a click before it would be a plain link's full load
    await page.locator('#to-search').click();
    await page.locator('#search-modal').waitFor();
    expect(errors).toEqual([]);
  });
});
