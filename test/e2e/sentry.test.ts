/**
 * Sentry in Chromium against production builds. With `SENTRY_DSN` set for
 * the server, browser errors become exactly one event each, posted to our tunnel and relayed by
 * the server to a receiver on 127.0.0.1; with none, no SDK is loaded and nothing is sent. Exactly
 * one: a later error's event is awaited first, so a second copy would have arrived before it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLIENT_ERROR_MESSAGE, SERVER_ERROR_MESSAGE } from '../../shared/error-messages';
import { startEnvelopeReceiver, type EnvelopeReceiver } from '../helpers/envelope-receiver';
import { eventsOf, titleOf } from '../helpers/sentry-events';
import { BUILDS } from './global-setup';
import {
  launchChromium,
  openPage,
  skipWithoutChromium,
  startServer,
  waitForHydration,
  type RunningServer,
} from './harness';

/** Events cross the browser, the tunnel and the receiver: allow them more than a second. */
const ARRIVAL = { timeout: 10_000 };
/** An SDK marker: the global every Sentry SDK registers itself on. */
const SENTRY_CODE = '__SENTRY__';

describe.skipIf(skipWithoutChromium)('Sentry in the browser', () => {
  let receiver: EnvelopeReceiver;
  let demo: RunningServer;
  let basic: RunningServer;
  let bare: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    receiver = await startEnvelopeReceiver();
    const env = { SENTRY_DSN: `http://publickey@127.0.0.1:${receiver.port}/123` };
    [demo, basic, bare, browser] = await Promise.all([
      startServer('demo', { env }),
      startServer('basic', { env }),
      startServer('demo'),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([demo?.stop(), basic?.stop(), bare?.stop(), browser?.close()]);
    await receiver?.close();
  });

  const browserEvents = () => eventsOf(receiver).filter((e) => e.sdk === 'sentry.javascript.react');

  /** Throws from a timer once the SDK is in, and waits for that event to arrive. */
  async function sentinel(page: Page): Promise<void> {
    await expect.poll(() => browserEvents().length, ARRIVAL).toBeGreaterThan(0);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('sentinel');
      });
    });
    await expect
      .poll(() => browserEvents().some((e) => titleOf(e.payload) === 'sentinel'), ARRIVAL)
      .toBe(true);
  }

  test('a render error: one event, through our tunnel, and the app-wide fallback message', async () => {
    receiver.reset();
    const { page, requests } = await openPage(browser);
    // Whether the SDK was there when hydration ended (it loads after hydration).
    await page.addInitScript(() => {
      new MutationObserver((_records, observer) => {
        observer.disconnect();
        Object.assign(window, { sdkAtHydration: '__SENTRY__' in window });
      }).observe(document, { subtree: true, attributeFilter: ['data-hydrated'] });
    });
    await page.goto(`${demo.url}/lab/client-error`);
    await waitForHydration(page);
    expect(await page.evaluate(() => (window as { sdkAtHydration?: boolean }).sdkAtHydration)).toBe(false);
    await page.locator('#break').click();
    await expect.poll(() => page.locator('h1').first().textContent()).toBe(CLIENT_ERROR_MESSAGE);
    await sentinel(page);
    const events = browserEvents();
    expect(events.map((e) => titleOf(e.payload))).toEqual([
      'The lab asked this component to fail (client-error).',
      'sentinel',
    ]);
    expect(events[0]!.payload.tags?.digest).toBeUndefined();
    // Relayed by the server: its fetch, to the DSN's endpoint, never the browser itself.
    for (const { request } of events) {
      expect(request.headers['user-agent']).not.toMatch(/Chrome/);
      expect(request.url).toBe('/api/123/envelope/');
    }
    expect(requests).toContain(`fetch ${demo.url}/monitoring`);
    expect(requests.filter((r) => !r.includes(`${demo.url}/`))).toEqual([]);
  });

  test('a server error the page shows: one browser event, tagged with the server event’s digest', async () => {
    // Once before, so that the route's modules are loaded and its loader fails after the shell.
    receiver.reset();
    await (await fetch(`${basic.url}/lab/streamed-error`)).text();
    await expect.poll(() => eventsOf(receiver).length, ARRIVAL).toBe(1);
    receiver.reset();
    const { page } = await openPage(browser);
    await page.goto(`${basic.url}/lab/streamed-error`);
    await expect.poll(() => page.locator('h1').first().textContent()).toBe(SERVER_ERROR_MESSAGE);
    const shown = /Digest: ([0-9a-f]{10})/.exec(await page.locator('main').innerText())?.[1];
    expect(shown).toBeDefined();
    await sentinel(page);
    expect(browserEvents().map((e) => e.payload.tags?.digest)).toEqual([shown, undefined]);
    const server = eventsOf(receiver).filter((e) => e.sdk === 'sentry.javascript.node');
    expect(server.map((e) => e.payload.tags)).toEqual([
      { route: '/lab/streamed-error', source: 'load', digest: shown },
    ]);
  });

  test('with no DSN: no config, no SDK chunk, nothing posted, and the app-wide fallback message still shows', async () => {
    const { page, requests, errors } = await openPage(browser);
    await page.goto(`${bare.url}/lab/client-error`);
    await waitForHydration(page);
    await page.locator('#break').click();
    await expect.poll(() => page.locator('h1').first().textContent()).toBe(CLIENT_ERROR_MESSAGE);
    expect(await page.evaluate(() => '__SWITCHYARD_SENTRY__' in window)).toBe(false);
    expect(requests.filter((r) => /monitoring|sentry/.test(r))).toEqual([]);
    expect(errors).toEqual([]);
  });

  test('the entry and what it imports statically hold no Sentry code; the lazy chunk does', () => {
    const client = join(BUILDS.demo.out, 'client');
    type Chunk = { file: string; imports?: string[]; dynamicImports?: string[] };
    const manifest = JSON.parse(readFileSync(join(client, '.vite/manifest.json'), 'utf8')) as Record<
      string,
      Chunk
    >;
    const statics = new Set<string>();
    const visit = (key: string) => {
      if (statics.has(key)) return;
      statics.add(key);
      manifest[key]!.imports?.forEach(visit);
    };
    visit('client/entry.tsx');
    for (const key of statics) {
      expect(readFileSync(join(client, manifest[key]!.file), 'utf8'), key).not.toContain(SENTRY_CODE);
    }
    expect(manifest['client/entry.tsx']!.dynamicImports).toContain('client/sentry-browser.ts');
    expect(readFileSync(join(client, manifest['client/sentry-browser.ts']!.file), 'utf8')).toContain(
      SENTRY_CODE,
    );
  });
});
