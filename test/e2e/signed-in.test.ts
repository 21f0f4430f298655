/**
 * The demo's sign-in in Chromium, as a visitor goes through it: "You" signed out is a soft
 * navigation through middleware to sign in, which comes back to /me; Like is that user's toggle,
 * its count exact at every moment and after a reload; signed out, Like leads to sign in and back;
 * signing out. The same story with JavaScript off, as full form posts.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  isDocument,
  openAt,
  serveWithChromium,
  skipWithoutChromium,
  waitForHydration,
  type RunningServer,
} from './harness';

const likeButton = (page: Page) => page.locator('.like-button');
const likeCount = async (page: Page) =>
  Number((await page.locator('.like-count').textContent())!.replace(/,/g, ''));
const pressed = (page: Page) => likeButton(page).getAttribute('aria-pressed');
const account = (page: Page) => page.locator('.account-link').textContent();
/** Where a signed-out Like or "You" sends the visitor: the sign-in page, coming back to `next`. */
const signInFor = (next: string) => `/sign-in?next=${encodeURIComponent(next)}`;

describe.skipIf(skipWithoutChromium)('signed in, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  test('with JavaScript: sign in from "You", Like as a toggle, Like signed out, sign out', async () => {
    const { page, requests, errors } = await openAt(browser, `${server.url}/`);
    // Signed out, "You" goes through middleware to sign in, softly.
    await page.getByRole('link', { name: 'You', exact: true }).click();
    await page.waitForURL(server.url + signInFor('/me'));
    await page.getByRole('button', { name: 'Sign in as Ada Lindqvist' }).click();
    await page.waitForURL(`${server.url}/me`);
    await expect.poll(() => account(page)).toBe('Signed in as @ada');
    await expect.poll(() => page.title()).toBe('You (@ada) · Switchyard');
    expect(requests.filter(isDocument)).toEqual([]);

    // Like, then a second press unlikes, a third likes again: every count it shows is exact.
    await page.goto(`${server.url}/photos/15`);
    await waitForHydration(page);
    const before = await likeCount(page);
    expect(await pressed(page)).toBe('false');
    await page.locator('.like-count').evaluate((count) => {
      const shown: string[] = ((window as { likeCounts?: string[] }).likeCounts = []);
      new MutationObserver(() => shown.push(count.textContent!)).observe(count, {
        characterData: true,
        childList: true,
        subtree: true,
      });
    });
    for (const [liked, count] of [
      ['true', before + 1],
      ['false', before],
      ['true', before + 1],
    ] as const) {
      await likeButton(page).click();
      await expect.poll(() => pressed(page)).toBe(liked);
      await expect.poll(() => likeButton(page).getAttribute('aria-busy')).toBe('false');
      expect(await likeCount(page)).toBe(count);
    }
    // Never the pending like and the stored one both.
    const shown = await page.evaluate(() => (window as { likeCounts?: string[] }).likeCounts!);
    expect(new Set(shown.map((text) => Number(text.replace(/,/g, ''))))).toEqual(
      new Set([before, before + 1]),
    );
    await page.reload();
    expect(await likeCount(page)).toBe(before + 1);
    expect(await pressed(page)).toBe('true');

    // /me lists it.
    await waitForHydration(page);
    await page.getByRole('link', { name: 'You', exact: true }).click();
    await page.waitForURL(`${server.url}/me`);
    await expect.poll(() => page.locator('main a.card-link[href="/photos/15"]').count()).toBe(1);

    // Signed out, Like leads to sign in, and back to the photo.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => account(page)).toBe('Sign in');
    await page.goto(`${server.url}/photos/15`);
    await waitForHydration(page);
    expect(await pressed(page)).toBeNull();
    await likeButton(page).click();
    await page.waitForURL(server.url + signInFor('/photos/15'));
    await page.getByRole('button', { name: 'Sign in as Kenji Mori' }).click();
    await page.waitForURL(`${server.url}/photos/15`);
    await expect.poll(() => account(page)).toBe('Signed in as @kenji');
    // Kenji's like is not Ada's.
    expect(await pressed(page)).toBe('false');
    expect(await likeCount(page)).toBe(before + 1);
    expect(errors).toEqual([]);
  });

  test('with JavaScript off: the same as full form posts', async () => {
    const { page } = await openAt(browser, `${server.url}/me`, { javaScriptEnabled: false });
    expect(page.url()).toBe(server.url + signInFor('/me'));
    const post = (name: string | RegExp) =>
      Promise.all([page.waitForEvent('load'), page.getByRole('button', { name }).click()]);
    await post('Sign in as Mira Castell');
    expect(page.url()).toBe(`${server.url}/me`);
    expect(await account(page)).toBe('Signed in as @mira');

    await page.goto(`${server.url}/photos/16`);
    const before = await likeCount(page);
    await post(/Like/);
    expect(page.url()).toBe(`${server.url}/photos/16`);
    expect([await pressed(page), await likeCount(page)]).toEqual(['true', before + 1]);
    await post(/Like/);
    expect([await pressed(page), await likeCount(page)]).toEqual(['false', before]);
    await post(/Like/);
    expect([await pressed(page), await likeCount(page)]).toEqual(['true', before + 1]);

    await post('Sign out');
    expect(page.url()).toBe(`${server.url}/`);
    expect(await account(page)).toBe('Sign in');
    await page.goto(`${server.url}/photos/16`);
    expect(await pressed(page)).toBeNull();
    await post(/Like/);
    expect(page.url()).toBe(server.url + signInFor('/photos/16'));
    await page.goto(`${server.url}/photos/16`);
    expect(await likeCount(page)).toBe(before + 1);
  });
});
