/**
 * The browser side, in Chromium: one page view of the bench page, then a click on a link the
 * user showed intent for (hover), at once a click on a link far down the list (not prefetched,
 * while the page's own prefetches may still run), then back. Times are taken in the page, from
 * the click to the moment the new heading is in the DOM; requests and bytes come from CDP, bytes
 * as they crossed the wire (compressed, headers included).
 */
import type { Browser, CDPSession, Page } from 'playwright-core';

export interface Profile {
  name: 'loopback' | 'slow';
  /** Chromium's network emulation: added latency per request, bytes per second. */
  conditions?: { latency: number; downloadThroughput: number; uploadThroughput: number };
}
export const PROFILES: Profile[] = [
  { name: 'loopback' },
  {
    name: 'slow',
    conditions: { latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 },
  },
];

interface Recorded {
  url: string;
  type: string;
  wallMs: number;
  bytes: number;
  done: boolean;
}
export interface Step {
  ms: number;
  requests: number;
  kib: number;
}
export interface BrowserFigures {
  pageView: { requests: number; kib: number; selfStarted: number; selfStartedKib: number };
  prefetchedClick: Step;
  coldClick: Step;
  back: Step;
}

/**
 * Installed in every document: records the click time and when the wanted heading appears. A
 * string, not a function: a compiler's helpers (tsx names functions) do not exist in the page.
 */
const TIMING_PROBE = `(() => {
  const now = () => String(performance.timeOrigin + performance.now());
  const check = () => {
    const want = sessionStorage.getItem('bench:want');
    if (!want || sessionStorage.getItem('bench:shown')) return;
    if (document.querySelector('h1')?.textContent === want) sessionStorage.setItem('bench:shown', now());
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  addEventListener('pageshow', check);
  addEventListener('click', () => sessionStorage.setItem('bench:clicked', now()), true);
})()`;

export async function browse(browser: Browser, origin: string, profile: Profile): Promise<BrowserFigures> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(TIMING_PROBE);
    const cdp = await context.newCDPSession(page);
    const requests = await recordRequests(cdp);
    if (profile.conditions)
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.conditions });
    const quietMs = profile.conditions ? 1_500 : 800;

    await page.goto(`${origin}/items/1`, { waitUntil: 'load' });
    await waitQuiet(requests, quietMs);
    const self = [...requests.values()].filter((r) => r.type === 'Fetch' || r.type === 'XHR');
    const pageView = {
      requests: requests.size,
      kib: sumKib([...requests.values()]),
      selfStarted: self.length,
      selfStartedKib: sumKib(self),
    };

    // Intent first, as a user's pointer gives it, then the click.
    await page.hover('nav a[href="/items/2"]');
    await waitQuiet(requests, quietMs);
    const prefetchedClick = await timed(page, requests, 'Items for 2', () =>
      page.click('nav a[href="/items/2"]'),
    );
    // At once, while whatever the new page started may still be on the wire.
    const coldClick = await timed(page, requests, 'Items for 199', () =>
      page.evaluate(() => document.querySelector<HTMLAnchorElement>('main a[href="/items/199"]')!.click()),
    );
    const back = await timed(page, requests, 'Items for 2', () =>
      page.evaluate(() => {
        sessionStorage.setItem('bench:clicked', String(performance.timeOrigin + performance.now()));
        history.back();
      }),
    );
    return { pageView, prefetchedClick, coldClick, back };
  } finally {
    await context.close();
  }
}

async function recordRequests(cdp: CDPSession): Promise<Map<string, Recorded>> {
  const requests = new Map<string, Recorded>();
  await cdp.send('Network.enable');
  cdp.on('Network.requestWillBeSent', (event) => {
    if (event.request.url.startsWith('data:') || requests.has(event.requestId)) return;
    requests.set(event.requestId, {
      url: event.request.url,
      type: event.type ?? 'Other',
      wallMs: event.wallTime * 1000,
      bytes: 0,
      done: false,
    });
  });
  // Bytes on the wire, headers included: what has come so far, then Chromium's total at the end.
  const received = (id: string, bytes: number) => {
    const request = requests.get(id);
    if (request && !request.done) request.bytes = bytes;
  };
  cdp.on('Network.responseReceived', (event) => received(event.requestId, event.response.encodedDataLength));
  cdp.on('Network.dataReceived', (event) =>
    received(event.requestId, (requests.get(event.requestId)?.bytes ?? 0) + event.encodedDataLength),
  );
  const finish = (id: string, bytes?: number) => {
    const request = requests.get(id);
    if (request) Object.assign(request, { bytes: bytes ?? request.bytes, done: true });
  };
  cdp.on('Network.loadingFinished', (event) => finish(event.requestId, event.encodedDataLength));
  // An aborted request (a prefetch the router cancelled) cost what came before it was.
  cdp.on('Network.loadingFailed', (event) => finish(event.requestId));
  return requests;
}

/** Waits until nothing is in flight and nothing started for `quietMs` (at most 20 s). */
async function waitQuiet(requests: Map<string, Recorded>, quietMs: number): Promise<void> {
  const deadline = performance.now() + 20_000;
  let seen = -1;
  let since = performance.now();
  while (performance.now() < deadline) {
    const busy = [...requests.values()].some((r) => !r.done);
    if (busy || requests.size !== seen) {
      seen = requests.size;
      since = performance.now();
    } else if (performance.now() - since >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function timed(
  page: Page,
  requests: Map<string, Recorded>,
  want: string,
  act: () => Promise<unknown>,
): Promise<Step> {
  await page.evaluate((w) => {
    sessionStorage.setItem('bench:want', w);
    sessionStorage.removeItem('bench:shown');
    sessionStorage.removeItem('bench:clicked');
  }, want);
  await act();
  const deadline = performance.now() + 30_000;
  let times: readonly [string | null, string | null] = [null, null];
  while (!times[1] && performance.now() < deadline) {
    // A full page load replaces the document under us: try again in the new one.
    times = await page
      .evaluate(
        () => [sessionStorage.getItem('bench:clicked'), sessionStorage.getItem('bench:shown')] as const,
      )
      .catch(() => [null, null] as [null, null]);
    if (!times[1]) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  if (!times[0] || !times[1]) throw new Error(`"${want}" did not show within 30 s`);
  const [clicked, shown] = [Number(times[0]), Number(times[1])];
  // Requests the click caused: started from the click until the content showed. Prefetches
  // (`_syp=auto` or `full`: on this page, with no loading state and no entry going stale within
  // a run, a navigation never sends one) are the pages' own: the page left may start one in the
  // moment before the browser tells it of a back (popstate), and the router aborts it then.
  const caused = [...requests.values()].filter(
    (r) => r.wallMs >= clicked - 1 && r.wallMs <= shown && !isPrefetch(r.url),
  );
  return { ms: shown - clicked, requests: caused.length, kib: sumKib(caused) };
}

const sumKib = (list: Recorded[]) => list.reduce((total, r) => total + r.bytes, 0) / 1024;
const isPrefetch = (url: string) => /[?&]_syp=(auto|full)(&|$)/.test(url);

/**
 * One figure from several passes: for each step, the pass whose time is the median (the lower
 * of the two middle ones for an even count), with that pass's requests and bytes. A single pass
 * of a 30 ms click moves by half its value with whatever else the machine does.
 */
export function medianFigures(passes: readonly BrowserFigures[]): BrowserFigures {
  if (passes.length === 0) throw new Error('no browser pass to take a median of');
  const middle = <T>(list: readonly T[], by: (item: T) => number): T =>
    [...list].sort((a, b) => by(a) - by(b))[Math.floor((list.length - 1) / 2)]!;
  const step = (key: 'prefetchedClick' | 'coldClick' | 'back') =>
    middle(
      passes.map((pass) => pass[key]),
      (s) => s.ms,
    );
  return {
    pageView: middle(
      passes.map((pass) => pass.pageView),
      (view) => view.selfStartedKib,
    ),
    prefetchedClick: step('prefetchedClick'),
    coldClick: step('coldClick'),
    back: step('back'),
  };
}
