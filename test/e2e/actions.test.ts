/**
 * Server actions in Chromium against the production demo (SPEC A1–A4, issue 7): likes and
 * comments with JavaScript on and off, validation, revalidation, and a crash that loses nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Request, Route } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { actionId } from '../../server/action-registry';
import { BUILDS } from './global-setup';
import {
  openAt,
  openPage,
  serveWithChromium,
  skipWithoutChromium,
  startServer,
  waitForHydration,
  type RunningServer,
} from './harness';

const isDocument = (r: Request) => r.resourceType() === 'document';
const isAction = (url: URL) => url.pathname.startsWith('/_switchyard/action/');

/** Holds every action request until `release()`, so a test can look at the pending state. */
async function holdActions(page: Page) {
  const held: Route[] = [];
  await page.route(isAction, (route) => void held.push(route));
  return {
    count: () => held.length,
    release: async () => {
      await Promise.all(held.splice(0).map((route) => route.continue()));
      await page.unroute(isAction);
    },
  };
}

const likeCount = (page: Page) => page.locator('.like-count').first().textContent();

describe.skipIf(skipWithoutChromium)('server actions in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  serveWithChromium('demo', (s, b) => {
    [server, browser] = [s, b];
  });

  test('the browser gets references to the actions, never their code', () => {
    const read = (dir: string) =>
      readdirSync(join(BUILDS.demo.out, dir), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && e.name.endsWith('.js'))
        .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
        .join('\n');
    const client = read('client');
    expect(client).toContain(actionId('lib/actions.ts', 'likePhoto'));
    for (const code of ['commentsOf', 'better-sqlite3', 'revalidatePath']) expect(client).not.toContain(code);
    // …which the server bundle has, so the search above would have found them.
    expect(read('server')).toContain('commentsOf');
  });

  const open = (path: string, javaScriptEnabled = true) =>
    openAt(browser, server.url + path, { javaScriptEnabled, saveData: true });

  test('a like with JavaScript: counted at once while pending, then stored', async () => {
    const { page, requests, errors } = await open('/photos/20');
    const before = Number(await likeCount(page));
    const hold = await holdActions(page);
    await page.locator('.like-button').first().click();
    await expect.poll(() => hold.count()).toBe(1);
    expect(Number(await likeCount(page))).toBe(before + 1);
    expect(await page.locator('.like-button').first().getAttribute('aria-busy')).toBe('true');
    await hold.release();
    await expect.poll(() => page.locator('.like-button').first().getAttribute('aria-busy')).toBe('false');
    expect(Number(await likeCount(page))).toBe(before + 1);
    expect(requests.filter(isDocument)).toEqual([]);
    await page.reload();
    expect(Number(await likeCount(page))).toBe(before + 1);
    expect(errors).toEqual([]);
  });

  test('a comment with JavaScript: pending, then shown, with no document request', async () => {
    const { page, requests, errors } = await open('/photos/21');
    await page.locator('input[name="author"]').fill('Grace');
    await page.locator('textarea[name="text"]').fill('Posted with JavaScript on');
    const hold = await holdActions(page);
    await page.locator('.comment-form button').click();
    await expect.poll(() => page.locator('.comment-form button').textContent()).toBe('Posting…');
    await hold.release();
    await expect
      .poll(() => page.locator('.comment-text').allTextContents())
      .toContain('Posted with JavaScript on');
    expect(await page.locator('#comments-heading').textContent()).toBe('Comments (1)');
    expect(requests.filter(isDocument)).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('a comment that fails validation: the message beside the form, nothing stored', async () => {
    const { page } = await open('/photos/22');
    await page.locator('input[name="author"]').fill('Grace');
    await page.locator('textarea[name="text"]').fill('   ');
    await page.locator('.comment-form button').click();
    await expect.poll(() => page.locator('#comment-error').textContent()).toBe('Write a comment first.');
    await page.reload();
    expect(await page.locator('#comments-heading').textContent()).toBe('Comments (0)');
  });

  test('with JavaScript off: a like and a comment are full form posts that come back to the page', async () => {
    const { page, requests } = await open('/photos/23', false);
    const before = Number(await likeCount(page));
    await Promise.all([page.waitForEvent('load'), page.locator('.like-button').first().click()]);
    expect(page.url()).toBe(`${server.url}/photos/23`);
    expect(Number(await likeCount(page))).toBe(before + 1);
    await page.locator('input[name="author"]').fill('Ada');
    await page.locator('textarea[name="text"]').fill('Posted with JavaScript off');
    await Promise.all([page.waitForEvent('load'), page.locator('.comment-form button').click()]);
    expect(page.url()).toBe(`${server.url}/photos/23`);
    expect(await page.locator('.comment-text').allTextContents()).toContain('Posted with JavaScript off');
    // Each post was a document request answered with a 303 back to the page.
    const posts = requests.filter((r) => r.method() === 'POST');
    expect(posts).toHaveLength(2);
    for (const post of posts) expect((await post.response())!.status()).toBe(303);
  });

  test('revalidatePath drops only the prefetch entries of the paths it names', async () => {
    const recorded = await openPage(browser);
    const { page } = recorded;
    await page.goto(`${server.url}/photos/24`);
    await waitForHydration(page);
    const keys = () =>
      page.evaluate(() =>
        (
          window as unknown as { __SWITCHYARD_DEVTOOLS__: { snapshot(): { entries: { key: string }[] } } }
        ).__SWITCHYARD_DEVTOOLS__
          .snapshot()
          .entries.map((e) => e.key),
      );
    // The header's links are in view: the feed and the docs are prefetched.
    await expect.poll(keys).toEqual(expect.arrayContaining(['/', '/docs']));
    await page.locator('.like-button').first().click();
    // likePhoto revalidates the photo and the feed; the docs entry stays.
    await expect.poll(keys).not.toContain('/');
    expect(await keys()).toContain('/docs');
  });

  test('a comment survives the server being killed with SIGKILL right after it answered', async () => {
    const first = await startServer('demo');
    const { page } = await openPage(browser, { saveData: true });
    await page.goto(`${first.url}/photos/25`);
    await waitForHydration(page);
    await page.locator('input[name="author"]').fill('Lin');
    await page.locator('textarea[name="text"]').fill('Written before the crash');
    await page.locator('.comment-form button').click();
    await expect
      .poll(() => page.locator('.comment-text').allTextContents())
      .toContain('Written before the crash');
    await first.stop('SIGKILL');
    const second = await startServer('demo', { dataDir: first.dataDir });
    try {
      const html = await (await fetch(`${second.url}/photos/25`)).text();
      expect(html).toContain('Written before the crash');
    } finally {
      await second.stop();
    }
  });
});
