/**
 * What a click costs in the browser, on the bench's 200-item page: the components React renders
 * when the click turns pending on, and the main thread's CPU time from the click to the next
 * paint (pending shown) and to the paint of the new page — beside the bare server's whole page
 * load, from its navigation to its first paint. The clicked page's data is held back until
 * pending has painted, so that the pending frame is one of its own on any machine; the wait is
 * idle time and no part of the figures.
 */
import type { Browser, Page } from 'playwright-core';
import { RENDER_PROBE, type RenderedComponent } from './click-renders';
import { mainThreadToPaint, type TraceEvent } from './main-thread';

export interface ClickFigures {
  /** The link clicked: far down the list, so neither viewport nor intent prefetched it. */
  clickedHref: string;
  /** What React rendered from the click until pending had painted, over `commits` commits. */
  rendered: RenderedComponent[];
  commits: number;
  /** Main-thread CPU from the click's task through the frame that paints next, in ms. */
  toNextPaintMs: number;
  /** Main-thread CPU from the click's task through the frame that paints the new page, in ms. */
  toNewPageMs: number;
  /** The bare server's page load: main-thread CPU from the document's commit through its first paint. */
  barePageLoadMs: number;
}

const PAGE = '/items/1';
const CLICKED = '/items/199';
const NEW_HEADING = 'Items for 199';
const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
];
/** Marked in the page when the new heading is in the DOM; the trace finds the paint after it. */
const SHOWN_MARK = 'bench:new-page';

/** `passes` clicks and `passes` bare page loads, each in a fresh context; the median of each figure. */
export async function measureClick(
  browser: Browser,
  origin: string,
  bareOrigin: string,
  passes: number,
): Promise<ClickFigures> {
  const clicks = [];
  const loads = [];
  for (let pass = 0; pass < passes; pass++) {
    clicks.push(await clickOnce(browser, origin));
    loads.push(await pageLoadOnce(browser, bareOrigin));
  }
  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) / 2)]!;
  return {
    clickedHref: CLICKED,
    // The same components every pass: the first pass's list.
    rendered: clicks[0]!.commits.flat(),
    commits: clicks[0]!.commits.length,
    toNextPaintMs: median(clicks.map((c) => c.toNextPaintMs)),
    toNewPageMs: median(clicks.map((c) => c.toNewPageMs)),
    barePageLoadMs: median(loads),
  };
}

async function clickOnce(browser: Browser, origin: string) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(RENDER_PROBE);
    await page.goto(origin + PAGE, { waitUntil: 'networkidle' });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === CLICKED,
      async (route) => {
        await held;
        await route.continue();
      },
    );
    const events = await traced(browser, page, async () => {
      const commits = await page.evaluate<RenderedComponent[][]>(clickAndWaitForPending);
      release();
      await page.evaluate(waitForNewPage);
      return commits;
    });
    const isClick = (e: TraceEvent) => e.name === 'EventDispatch' && e.args?.data?.type === 'click';
    return {
      commits: events.result,
      toNextPaintMs: mainThreadToPaint(events.trace, isClick).cpuMs,
      toNewPageMs: mainThreadToPaint(events.trace, isClick, (e) => e.name === SHOWN_MARK).cpuMs,
    };
  } finally {
    await context.close();
  }
}

async function pageLoadOnce(browser: Browser, origin: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const url = origin + PAGE;
    const { trace } = await traced(browser, page, () => page.goto(url, { waitUntil: 'load' }));
    // The document's commit in the renderer: `navigationStart` is stamped when the browser
    // starts the request, and the first paint after it can be the blank page's before it.
    const isCommit = (e: TraceEvent) => e.name === 'CommitLoad' && e.args?.data?.url === url;
    return mainThreadToPaint(trace, isCommit).cpuMs;
  } finally {
    await context.close();
  }
}

async function traced<T>(
  browser: Browser,
  page: Page,
  act: () => Promise<T>,
): Promise<{ result: T; trace: TraceEvent[] }> {
  await browser.startTracing(page, { categories: CATEGORIES });
  const outcome = await act().then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  const buffer = await browser.stopTracing();
  if (!outcome.ok) throw outcome.error;
  const result = outcome.value;
  const json = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  return { result, trace: Array.isArray(json) ? json : json.traceEvents };
}

// Strings, not functions: a compiler's helpers (tsx names functions) do not exist in the page.

/**
 * Counts commits from the click until the progress bar is in the DOM and a frame has painted
 * it; marks the moment the new heading appears, for the trace.
 */
const clickAndWaitForPending = `(async () => {
  new MutationObserver((_, observer) => {
    if (document.querySelector('h1')?.textContent !== ${JSON.stringify(NEW_HEADING)}) return;
    performance.mark(${JSON.stringify(SHOWN_MARK)});
    observer.disconnect();
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
  window.__benchCounting = true;
  document.querySelector('main a[href=${JSON.stringify(CLICKED)}]').click();
  const deadline = performance.now() + 10000;
  while (!document.querySelector('[role="progressbar"]')) {
    if (performance.now() > deadline) throw new Error('the progress bar did not show within 10 s');
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  window.__benchCounting = false;
  return window.__benchCommits.slice();
})()`;

/** Until the new heading is marked and a frame after it has painted. */
const waitForNewPage = `(async () => {
  const deadline = performance.now() + 30000;
  while (performance.getEntriesByName(${JSON.stringify(SHOWN_MARK)}).length === 0) {
    if (performance.now() > deadline) throw new Error('the new page did not show within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
})()`;
