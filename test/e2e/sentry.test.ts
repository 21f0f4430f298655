/**
 * Sentry in Chromium against production builds. With `SENTRY_DSN` set for
 * the server, browser errors become exactly one event each, posted to our tunnel and relayed by
 * the server to a receiver on 127.0.0.1; with none, no SDK is loaded and nothing is sent. Exactly
 * one: a later error's event is awaited first, so a second copy would have arrived before it.
 * The demo also traces every request (`SENTRY_TRACES_SAMPLE_RATE=1`): one trace runs from the
 * server's document to the browser's page load, and from a navigation to its page-data request.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SERVER_ERROR_MESSAGE } from '../../shared/error-messages';
import { CLIENT_ERROR_MESSAGE } from '../../shared/fallback-page';
import { startEnvelopeReceiver, type EnvelopeReceiver } from '../helpers/envelope-receiver';
import { eventsOf, itemsOf, titleOf } from '../helpers/sentry-events';
import { BUILDS } from './global-setup';
import {
  isPageData,
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
/** A tracing marker: the name of the SDK's browser tracing integration. */
const TRACING_CODE = 'BrowserTracing';

interface Span {
  name: string;
  trace_id: string;
  span_id: string;
  parent_span_id?: string;
  start_timestamp: number;
  end_timestamp: number;
  is_segment: boolean;
  attributes: Record<string, { value: unknown } | undefined>;
}

type Chunk = { file: string; imports?: string[]; dynamicImports?: string[] };
function manifestOf(out: string): Record<string, Chunk> {
  return JSON.parse(readFileSync(join(out, 'client/.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;
}

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
      startServer('demo', { env: { ...env, SENTRY_TRACES_SAMPLE_RATE: '1' } }),
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
  const spans = () => itemsOf<{ items: Span[] }>(receiver, 'span').flatMap((s) => s.payload.items);
  const value = (span: Span | undefined, key: string) => span?.attributes[key]?.value;
  /** The first transaction (segment span) `test` accepts, once it has arrived. */
  async function segment(test: (span: Span) => boolean): Promise<Span> {
    const find = () => spans().find((s) => s.is_segment && test(s));
    await expect.poll(() => find() !== undefined, ARRIVAL).toBe(true);
    return find()!;
  }

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
    const { page, requests } = await openPage(browser);
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
    // A DSN without a traces rate: the error SDK only, never the tracing chunk, and no span.
    const tracing = manifestOf(BUILDS.basic.out)['client/sentry-tracing.ts']!.file;
    expect(requests.filter((r) => r.includes(tracing))).toEqual([]);
    // The page's own events name the SDK's integrations: no tracing among them.
    const integrations = browserEvents().map(
      (e) => (e.payload as { sdk?: { integrations?: string[] } }).sdk?.integrations ?? [],
    );
    expect(integrations.length).toBeGreaterThan(0);
    for (const names of integrations) expect(names).not.toContain(TRACING_CODE);
    // A page of an earlier test (the demo, tracing on) may still send its spans after the reset:
    // only a span of this build's release (the build id, one per app) would be this page's.
    const release = browserEvents()[0]!.payload.release;
    expect(release).toMatch(/\w/);
    expect(spans().filter((s) => value(s, 'sentry.release') === release)).toEqual([]);
  });

  test('one trace: the page load continues the document’s, a navigation to a photo has the router’s phases and its page data joins it', async () => {
    receiver.reset();
    // No prefetch: the click makes a page-data request of its own.
    const { page } = await openPage(browser, { saveData: true });
    const pageData: Record<string, string>[] = [];
    page.on('request', (r) => isPageData(r) && pageData.push(r.headers()));
    await page.goto(`${demo.url}/`);
    await waitForHydration(page);
    const server = (path: string, kind: string) => (s: Span) =>
      value(s, 'url.path') === path && value(s, 'switchyard.request') === kind;
    // The page load of this document is the one in its trace (a page of an earlier test may still
    // send its own after the reset); a page load that did not continue the trace is never found.
    const served = await segment(server('/', 'document'));
    const pageload = await segment(
      (s) => value(s, 'sentry.op') === 'pageload' && s.trace_id === served.trace_id,
    );
    expect(pageload.name).toBe('/');
    // A page's spans carry its build's release: what tells one app's pages from another's above.
    expect(value(pageload, 'sentry.release')).toMatch(/\w/);
    expect(value(pageload, 'sentry.release')).toBe(value(served, 'sentry.release'));

    await page.locator('a[href^="/photos/"]').first().click();
    await page.waitForURL(/\/photos\/\d+$/);
    const path = new URL(page.url()).pathname;
    const navigation = await segment((s) => value(s, 'sentry.op') === 'navigation');
    expect(navigation.name).toBe('/photos/[id]');
    expect(navigation.trace_id).not.toBe(pageload.trace_id);
    expect(
      Object.fromEntries(
        ['entry', 'requests', 'loading_state', 'kind', 'outcome'].map((k) => [
          k,
          value(navigation, `switchyard.${k}`),
        ]),
      ),
    ).toEqual({ entry: 'missing', requests: 1, loading_state: false, kind: 'push', outcome: 'commit' });
    const phases = () =>
      spans()
        .filter((s) => s.parent_span_id === navigation.span_id)
        .map((s) => s.name);
    await expect
      .poll(
        () => ['cache decision', 'page data', 'route scripts', 'commit'].every((n) => phases().includes(n)),
        ARRIVAL,
      )
      .toBe(true);
    // The page-data request carried the navigation's trace, and the server's transaction joined it.
    expect(pageData.map((h) => h['sentry-trace']?.split('-')[0])).toEqual([navigation.trace_id]);
    const answered = await segment(server(path, 'page-data'));
    expect(answered).toMatchObject({ name: 'GET /photos/[id]', trace_id: navigation.trace_id });
    // Its parent is the browser's span of that request, named by the route too.
    const request = spans().find((s) => s.span_id === answered.parent_span_id);
    expect(request).toMatchObject({ name: 'GET /photos/[id]', parent_span_id: navigation.span_id });
    // Names are patterns, and nothing sent holds the photo's path in a name.
    expect(spans().filter((s) => s.trace_id === navigation.trace_id && s.name.includes(path))).toEqual([]);
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

  test('the entry and what it imports statically hold no Sentry code; the lazy chunk does, and tracing is a chunk of its own', () => {
    const client = join(BUILDS.demo.out, 'client');
    const manifest = manifestOf(BUILDS.demo.out);
    const read = (key: string) => readFileSync(join(client, manifest[key]!.file), 'utf8');
    const staticsOf = (entry: string) => {
      const statics = new Set<string>();
      const visit = (key: string) => {
        if (statics.has(key)) return;
        statics.add(key);
        manifest[key]!.imports?.forEach(visit);
      };
      visit(entry);
      return statics;
    };
    for (const key of staticsOf('client/entry.tsx')) expect(read(key), key).not.toContain(SENTRY_CODE);
    expect(manifest['client/entry.tsx']!.dynamicImports).toContain('client/sentry-browser.ts');
    expect(read('client/sentry-browser.ts')).toContain(SENTRY_CODE);
    // The error SDK loads without tracing: that is the chunk it imports only with a traces rate.
    for (const key of staticsOf('client/sentry-browser.ts'))
      expect(read(key), key).not.toContain(TRACING_CODE);
    expect(manifest['client/sentry-browser.ts']!.dynamicImports).toContain('client/sentry-tracing.ts');
    expect([...staticsOf('client/sentry-tracing.ts')].some((key) => read(key).includes(TRACING_CODE))).toBe(
      true,
    );
  });
});
