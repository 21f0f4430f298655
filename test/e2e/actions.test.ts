/**
 * Server actions in Chromium against the production demo: a signed-in user's likes and
 * comments with JavaScript on and off, validation, revalidation, and a crash that loses nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Route } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { BUILDS } from './global-setup';
import {
  devtoolsSnapshot,
  isDocument,
  openAt,
  openPage,
  serveWithChromium,
  signInAs,
  skipWithoutChromium,
  startServer,
  waitForHydration,
  type RunningServer,
} from './harness';

const isAction = (url: URL) => url.pathname.startsWith('/_switchyard/action/');

/**
 * Holds every action request until `release()`, so a test can look at the pending state; later
 * ones go through. The route stays: Chromium can leave the next request to a URL hanging when
 * interception of it is turned off mid-page (`unroute`; microsoft/playwright#41802).
 */
async function holdActions(page: Page) {
  const held: Route[] = [];
  let holding = true;
  await page.route(isAction, (route) => (holding ? void held.push(route) : route.continue()));
  return {
    count: () => held.length,
    release: async () => {
      holding = false;
      await Promise.all(held.splice(0).map((route) => route.continue()));
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
    expect(client).toContain(actionId('lib/actions.ts', 'setLiked'));
    for (const code of ['commentsOf', 'better-sqlite3', 'revalidatePath']) expect(client).not.toContain(code);
    // …which the server bundle has, so the search above would have found them.
    expect(read('server')).toContain('commentsOf');
  });

  const open = (path: string, javaScriptEnabled = true, signedInAs?: string) =>
    openAt(browser, server.url + path, {
      javaScriptEnabled,
      saveData: true,
      ...(signedInAs ? { signedInAs } : {}),
    });

  test('a like with JavaScript: counted at once while pending, then stored', async () => {
    const { page, requests, errors } = await open('/photos/20', true, 'ada');
    const before = Number(await likeCount(page));
    const hold = await holdActions(page);
    await page.locator('.like-button').first().click();
    await expect.poll(() => hold.count()).toBe(1);
    expect(Number(await likeCount(page))).toBe(before + 1);
    expect(await page.locator('.like-button').first().getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('.like-button').first().getAttribute('aria-pressed')).toBe('true');
    await hold.release();
    await expect.poll(() => page.locator('.like-button').first().getAttribute('aria-busy')).toBe('false');
    // Once the answer and the page's new data are in, the like is counted once.
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
    // React resets the form after the action: to what was typed, which the state gives back.
    expect(await page.locator('input[name="author"]').inputValue()).toBe('Grace');
    expect(await page.locator('textarea[name="text"]').inputValue()).toBe('   ');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('comment-error');
    await page.reload();
    expect(await page.locator('#comments-heading').textContent()).toBe('Comments (0)');
  });

  test('a comment too long with JavaScript: the message over the text as typed', async () => {
    const { page, errors } = await open('/photos/26');
    await page.locator('input[name="author"]').fill('Grace');
    // maxLength stops typing, not a script setting the value: as a pasted-in or old form would.
    await page.locator('textarea[name="text"]').evaluate((el: HTMLTextAreaElement) => {
      el.removeAttribute('maxlength');
      el.value = 'x'.repeat(600);
    });
    await page.locator('.comment-form button').click();
    await expect.poll(() => page.locator('#comment-error').textContent()).toContain('(this one has 600)');
    expect(await page.locator('textarea[name="text"]').inputValue()).toBe('x'.repeat(600));
    expect(await page.locator('input[name="author"]').inputValue()).toBe('Grace');
    expect(errors).toEqual([]);
  });

  test('with JavaScript off: a rejected comment comes back with its message and what was typed', async () => {
    const { page, requests } = await open('/photos/27', false);
    await page.locator('input[name="author"]').fill('Ada');
    await page.locator('textarea[name="text"]').fill('  ');
    await Promise.all([page.waitForEvent('load'), page.locator('.comment-form button').click()]);
    expect(page.url()).toBe(`${server.url}/photos/27`);
    expect(await page.locator('#comment-error').textContent()).toBe('Write a comment first.');
    expect(await page.locator('input[name="author"]').inputValue()).toBe('Ada');
    expect(await page.locator('textarea[name="text"]').inputValue()).toBe('  ');
    // The answer has the focus, so the page opens scrolled to the form.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('comment-error');
    // A reload shows the page as it is: the message was for that one answer.
    await page.reload();
    expect(await page.locator('#comment-error').textContent()).toBe('');
    expect(await page.locator('#comments-heading').textContent()).toBe('Comments (0)');
    // Post/redirect/get: the post was a 303, so the reload did not post it again.
    expect(requests.filter((r) => r.method() === 'POST')).toHaveLength(1);
  });

  test('with JavaScript off: a like and a comment are full form posts that come back to the page', async () => {
    const { page, requests } = await open('/photos/23', false, 'kenji');
    const before = Number(await likeCount(page));
    await Promise.all([page.waitForEvent('load'), page.locator('.like-button').first().click()]);
    expect(page.url()).toBe(`${server.url}/photos/23`);
    expect(Number(await likeCount(page))).toBe(before + 1);
    expect(await page.locator('.like-button').first().getAttribute('aria-pressed')).toBe('true');
    // Signed in, the comment is kenji's: there is no name to type.
    expect(await page.locator('.comment-as').textContent()).toBe('Commenting as @kenji');
    await page.locator('textarea[name="text"]').fill('Posted with JavaScript off');
    await Promise.all([page.waitForEvent('load'), page.locator('.comment-form button').click()]);
    expect(page.url()).toBe(`${server.url}/photos/23`);
    expect(await page.locator('.comment-text').allTextContents()).toContain('Posted with JavaScript off');
    expect(await page.locator('.comment-meta a').allTextContents()).toEqual(['@kenji']);
    expect(await page.locator('#comment-error').textContent()).toBe('Your comment was posted.');
    expect(await page.locator('textarea[name="text"]').inputValue()).toBe('');
    // Each post was a document request answered with a 303 back to the page.
    const posts = requests.filter((r) => r.method() === 'POST');
    expect(posts).toHaveLength(2);
    for (const post of posts) expect((await post.response())!.status()).toBe(303);
  });

  test('over HTTP, a no-JS post of an invalid comment: 303 back, then the page with the message and the values', async () => {
    const page = await (await fetch(`${server.url}/photos/28`)).text();
    // The comment form's hidden fields, as a browser would post them.
    const form = /<form[^>]*class="comment-form"[^>]*>([\s\S]*?)<\/form>/.exec(page)![1]!;
    const action = /<form[^>]*class="comment-form"[^>]*action="([^"]+)"/.exec(page)![1]!;
    const fields = new URLSearchParams();
    for (const [, name, value] of form.matchAll(
      /<input type="hidden" name="([^"]+)"(?: value="([^"]*)")?/g,
    )) {
      fields.append(name!, (value ?? '').replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    }
    expect(fields.get('$ACTION_KEY')).toBeTruthy();
    fields.append('author', 'Ada <b>');
    fields.append('text', 'y'.repeat(501));
    const post = await fetch(server.url + action, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: server.url, referer: `${server.url}/photos/28` },
      body: fields,
    });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('/photos/28');
    const cookie = post.headers.get('set-cookie')!.split(';')[0]!;
    const answer = await fetch(`${server.url}/photos/28`, { headers: { cookie } });
    const back = await answer.text();
    expect(back).toMatch(/role="alert">A comment can be at most 500 characters \(this one has 501\)\.<\/p>/);
    expect(back).toMatch(/<input[^>]*name="author"[^>]*value="Ada &lt;b&gt;"/);
    expect(back).toContain(`>${'y'.repeat(501)}</textarea>`);
    expect(back).toMatch(/id="comment-error"[^>]*autofocus=""/);
    // Once, as far as a browser goes: the page clears the cookie at the Path it was set with, so
    // a browser, which honours that, reloads the page as it is. (The cookie itself stays valid for
    // its minute: whoever holds a copy can show the same answer again.)
    expect(answer.headers.get('set-cookie')).toMatch(
      /^sy_form=; Path=\/photos\/28;.*Expires=Thu, 01 Jan 1970/,
    );
    const browserPage = (await openPage(browser)).page;
    await browserPage.context().addCookies([
      {
        name: 'sy_form',
        value: cookie.slice('sy_form='.length),
        domain: new URL(server.url).hostname,
        path: '/photos/28',
      },
    ]);
    await browserPage.goto(`${server.url}/photos/28`);
    expect(await browserPage.content()).toContain('at most 500 characters');
    await browserPage.reload();
    expect(await browserPage.content()).not.toContain('at most 500 characters');
    expect((await browserPage.context().cookies()).map((c) => c.name)).not.toContain('sy_form');
  });

  test('a page rendered with a form state hydrates with it: no mismatch, the values stay', async () => {
    const fields = new URLSearchParams({ photoId: '29', author: 'Lin', text: '' });
    const page = await (await fetch(`${server.url}/photos/29`)).text();
    const form = /<form[^>]*class="comment-form"[^>]*>([\s\S]*?)<\/form>/.exec(page)![1]!;
    fields.set('$ACTION_KEY', /name="\$ACTION_KEY" value="([^"]+)"/.exec(form)![1]!);
    fields.set('$bound', '[{"error":null,"posted":null,"values":{"author":"","text":""}}]');
    const action = /<form[^>]*class="comment-form"[^>]*action="([^"]+)"/.exec(page)![1]!;
    const post = await fetch(server.url + action, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: server.url, referer: `${server.url}/photos/29` },
      body: fields,
    });
    const [name, value] = post.headers.get('set-cookie')!.split(';')[0]!.split('=');
    const recorded = await openPage(browser);
    await recorded.page.context().addCookies([{ name: name!, value: value!, url: server.url }]);
    await recorded.page.goto(`${server.url}/photos/29`);
    await waitForHydration(recorded.page);
    expect(await recorded.page.locator('#comment-error').textContent()).toBe('Write a comment first.');
    expect(await recorded.page.locator('input[name="author"]').inputValue()).toBe('Lin');
    expect(recorded.errors).toEqual([]);
    expect(recorded.console).toEqual([]);
  });

  test('revalidatePath drops only the prefetch entries of the paths it names', async () => {
    const recorded = await openPage(browser);
    const { page } = recorded;
    await signInAs(page, server.url, 'mira');
    await page.goto(`${server.url}/photos/24`);
    await waitForHydration(page);
    const keys = async () => (await devtoolsSnapshot(page)).entries.map((e) => e.key);
    // The header's links are in view: the feed and the docs are prefetched.
    await expect.poll(keys).toEqual(expect.arrayContaining(['/', '/docs']));
    await page.locator('.like-button').first().click();
    // setLiked revalidates the photo and the feed; the docs entry stays.
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
