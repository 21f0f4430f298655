/**
 * The development server navigates as a build does: a soft navigation to a page behind a
 * `loading.tsx` shows that loading state first, although nothing is prefetched in development.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium, openAt, skipWithoutChromium } from './harness';

/** Records in the page whether the loading state ever showed: seen, however briefly. */
function recordLoadingState(): void {
  new MutationObserver(() => {
    if (document.getElementById('slow-loading')) (window as { sawLoading?: boolean }).sawLoading = true;
  }).observe(document.body, { childList: true, subtree: true });
}

describe.skipIf(skipWithoutChromium)('the dev server in Chromium', () => {
  let child: ChildProcess | undefined;
  let browser: Browser | undefined;
  let url = '';

  beforeAll(async () => {
    child = spawn(process.execPath, ['bin/switchyard.js', 'dev', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, SWITCHYARD_DATA_DIR: mkdtempSync(join(tmpdir(), 'switchyard-dev-')) },
    });
    const started = new Promise<string>((resolve, reject) => {
      let out = '';
      child!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const port = /dev server on http:\/\/localhost:(\d+)/.exec(out)?.[1];
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      child!.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child!.once('exit', (code) => reject(new Error(`dev exited with ${code}: ${out}`)));
    });
    [url, browser] = await Promise.all([started, launchChromium()]);
  });

  afterAll(async () => {
    child?.kill('SIGTERM');
    await browser?.close();
  });

  test('a soft navigation shows the loading state, then the page', async () => {
    const { page, errors } = await openAt(browser!, `${url}/lab`);
    await page.evaluate(recordLoadingState);
    await page.locator('main a[href="/lab/slow"]').click();
    await page.waitForURL(`${url}/lab/slow`);
    await expect.poll(() => page.locator('#slow-data').count(), { timeout: 20_000 }).toBe(1);
    expect(await page.evaluate(() => (window as { sawLoading?: boolean }).sawLoading)).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);
});
