/**
 * Head tags in Chromium, on the demo: a soft navigation replaces the page's title, description,
 * canonical link and Open Graph tags (the old ones go, none doubles), and the photo modal's head
 * applies while it is open and gives the feed's back when it closes.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { isDocument, openAt, serveWithChromium, skipWithoutChromium, type RunningServer } from './harness';

const SITE_DESCRIPTION = 'A photo-sharing demo built with Switchyard.';

/** Every head tag of the kinds a `head()` sets, anywhere in the document: each key's values. */
function headOf(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(() => {
    const tags: Record<string, string[]> = {};
    const selector =
      'title, meta[name="description"], meta[name="robots"], meta[property^="og:"], link[rel="canonical"]';
    for (const el of document.querySelectorAll(selector)) {
      const [key, value] =
        el.tagName === 'TITLE'
          ? ['title', el.textContent ?? '']
          : el.tagName === 'LINK'
            ? ['canonical', el.getAttribute('href') ?? '']
            : [
                el.getAttribute('name') ?? el.getAttribute('property') ?? '',
                el.getAttribute('content') ?? '',
              ];
      (tags[key] ??= []).push(value);
    }
    return tags;
  });
}

/** A photo's head, as photoHead writes it, for the title and id the page shows. */
function photoHeadOf(head: Record<string, string[]>, id: string, title: string): void {
  const description = head.description?.[0] ?? '';
  expect(description.startsWith(`${title}: a picture by `)).toBe(true);
  expect(head).toEqual({
    title: [`${title} · Switchyard`],
    description: [description],
    canonical: [`/photos/${id}`],
    'og:title': [title],
    'og:description': [description],
    'og:image': [`/api/photos/${id}/art`],
    'og:type': ['article'],
  });
}

describe.skipIf(skipWithoutChromium)('head tags in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  test('the photo modal’s head applies while it is open; closing it restores the feed’s', async () => {
    const { page, requests, errors, console } = await openAt(browser, `${server.url}/`);
    const feed = {
      title: ['Feed · Switchyard'],
      description: [SITE_DESCRIPTION],
      'og:type': ['website'],
    };
    expect(await headOf(page)).toEqual(feed);
    const card = page.locator('main a.card-link').nth(2);
    const href = (await card.getAttribute('href'))!;
    const title = (await card.locator('.card-title').textContent())!;
    await card.click();
    await page.waitForURL(server.url + href);
    await expect.poll(() => page.getByRole('dialog').count(), { timeout: 10_000 }).toBe(1);
    await expect
      .poll(async () => (await headOf(page)).title, { timeout: 10_000 })
      .toEqual([`${title} · Switchyard`]);
    photoHeadOf(await headOf(page), href.slice('/photos/'.length), title);

    await page.keyboard.press('Escape');
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => page.getByRole('dialog').count(), { timeout: 10_000 }).toBe(0);
    expect(await headOf(page)).toEqual(feed);
    // Forward opens it again from the page the router holds, head and all.
    await page.goForward();
    await page.waitForURL(server.url + href);
    await expect
      .poll(async () => (await headOf(page)).title, { timeout: 10_000 })
      .toEqual([`${title} · Switchyard`]);
    photoHeadOf(await headOf(page), href.slice('/photos/'.length), title);
    expect(requests.filter(isDocument)).toEqual([]);
    expect(errors).toEqual([]);
    expect(console).toEqual([]);
  });

  test('soft navigations replace the head: a photo page, a page with fewer tags, a profile', async () => {
    const { page, requests, errors, console } = await openAt(browser, `${server.url}/photos/3`);
    const title = (await page.locator('main h1').first().textContent())!;
    photoHeadOf(await headOf(page), '3', title);

    await page.locator('header a[href="/tags"]').click();
    await page.waitForURL(`${server.url}/tags`);
    await expect
      .poll(() => headOf(page))
      .toEqual({ title: ['Tags · Switchyard'], description: [SITE_DESCRIPTION], 'og:type': ['website'] });

    await page.goBack();
    await page.waitForURL(`${server.url}/photos/3`);
    await expect
      .poll(async () => (await headOf(page)).title, { timeout: 10_000 })
      .toEqual([`${title} · Switchyard`]);
    photoHeadOf(await headOf(page), '3', title);

    const author = page.locator('main .byline a').first();
    const profile = (await author.getAttribute('href'))!;
    await author.click();
    await page.waitForURL(server.url + profile);
    await expect.poll(async () => (await headOf(page))['og:type']).toEqual(['profile']);
    const head = await headOf(page);
    expect(Object.keys(head).sort()).toEqual([
      'description',
      'og:description',
      'og:title',
      'og:type',
      'title',
    ]);
    expect(Object.values(head).every((values) => values.length === 1)).toBe(true);
    expect(requests.filter(isDocument)).toEqual([]);
    expect(errors).toEqual([]);
    expect(console).toEqual([]);
  });
});
