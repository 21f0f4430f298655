/**
 * How the costs grow. A figure at one size says little about the next order of magnitude: these
 * measure the same thing at several sizes, so a cost that grows faster than its input shows.
 *
 * - By route count (10 to 5 000): matching a URL, `switchyard build`, start to first response,
 *   and the server's resident memory after serving every kind of route.
 * - By page size (200 to 20 000 items): server CPU per request beside the bare server's, whose
 *   ratio should stay flat (the framework's cost is per request, not per item).
 * - By soft navigations (100 and 1 000 between 20 pages): the browser's JS heap and DOM nodes
 *   after a forced garbage collection, which stay flat when held pages and cache entries are
 *   bounded.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { matchRoute } from '../../shared/match-route';
import { buildRouteTree } from '../../shared/route-tree';
import autocannon from 'autocannon';
import { median, refuseFailures, timedGet } from './load';
import { cpuMs, rssMiB, startServer, stopServer, type RunningServer } from './servers';
import { writeTypedRoutesApp } from './typed-routes-app';

export interface RoutePoint {
  routes: number;
  /** Median time to match one URL, in microseconds. */
  matchUs: number;
  /** Wall time of `switchyard build`. */
  buildS: number;
  /** From spawning `switchyard start` to the end of the first page's body. */
  startMs: number;
  /** Resident memory after one request to each kind of route in every fifth section. */
  rssMiB: number;
}

export interface ItemPoint {
  items: number;
  switchyardMs: number;
  bareMs: number;
  ratio: number;
}

export interface NavigationPoint {
  navigations: number;
  heapMiB: number;
  domNodes: number;
}

/** Match time among `routes` routes of the usual shapes: static, dynamic, catch-all. */
export function matchMicroseconds(routes: number, batches: number): number {
  const files = Array.from({ length: routes }, (_, i) =>
    i % 4 === 0 ? `s${i}/[id]/page.tsx` : i % 4 === 1 ? `s${i}/[...rest]/page.tsx` : `s${i}/page.tsx`,
  );
  const tree = buildRouteTree(files);
  // The same 1 000 lookups at every size, spread over the whole tree.
  const paths = Array.from({ length: 1000 }, (_, n) => {
    const i = Math.floor((n * routes) / 1000);
    return i % 4 === 0 ? [`s${i}`, '42'] : i % 4 === 1 ? [`s${i}`, 'a', 'b'] : [`s${i}`];
  });
  let sink = 0;
  // One untimed pass: the candidates of each node are computed on first use, and the JIT warms.
  for (const segments of paths) if (matchRoute(tree, segments)) sink++;
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    const start = performance.now();
    for (const segments of paths) if (matchRoute(tree, segments)) sink++;
    times.push(((performance.now() - start) * 1000) / paths.length);
  }
  if (sink < 0) console.log(sink); // keeps the loop from being optimised away
  return median(times);
}

/**
 * The route-count curve: for each count an app of that many routes (the typed-routes bench app
 * without route types: five kinds of route per section, links and a loader), built and started.
 */
export async function routeCurve(
  frameworkRoot: string,
  dir: string,
  counts: number[],
): Promise<RoutePoint[]> {
  // Matching first, in this process, before builds and servers compete with it for the CPU; one
  // untimed round first, or the first size measured pays for compiling the matcher.
  matchMicroseconds(1000, 5);
  const matchUs = new Map(counts.map((routes) => [routes, matchMicroseconds(routes, 25)]));
  const points: RoutePoint[] = [];
  for (const routes of counts) {
    const app = join(dir, String(routes));
    const sections = Math.max(1, Math.round(routes / 5));
    writeTypedRoutesApp(app, { frameworkRoot, routeTypes: false, sections });
    const out = join(app, 'out');
    const building = performance.now();
    execFileSync(process.execPath, ['bin/switchyard.js', 'build', '--app', join(app, 'app'), '--out', out], {
      cwd: frameworkRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const buildS = (performance.now() - building) / 1000;
    const starting = performance.now();
    const server = await startServer('switchyard', out);
    try {
      await timedGet(`${server.origin}/s0`);
      const startMs = performance.now() - starting;
      for (let section = 0; section < sections; section += 5)
        for (const path of ['', '/new', '/7', '/docs/a/b', '/browse'])
          await timedGet(`${server.origin}/s${section}${path}`);
      points.push({ routes, matchUs: matchUs.get(routes)!, buildS, startMs, rssMiB: rssMiB(server) });
    } finally {
      await stopServer(server);
    }
  }
  return points;
}

/**
 * Server CPU per request by page size, both servers taking turns `reps` times. A run is a fixed
 * number of requests rather than a time: a 20 000-item page takes a hundred times longer than a
 * 200-item one, and each run still serves enough of them for a steady figure.
 */
export async function itemCurve(
  servers: [RunningServer, RunningServer],
  counts: number[],
  reps: number,
): Promise<ItemPoint[]> {
  const points: ItemPoint[] = [];
  for (const items of counts) {
    const amount = Math.max(32, Math.round((3000 * 200) / items));
    const runs = new Map<RunningServer, number[]>(servers.map((s) => [s, []]));
    // A 20 000-item page takes a second or more on a busy machine: no request may time out.
    const options = { url: '', connections: 4, amount, timeout: 120 };
    for (const server of servers) await autocannon({ ...options, url: `${server.origin}/many/${items}` });
    for (let rep = 0; rep < reps; rep++) {
      for (const server of rep % 2 ? [...servers].reverse() : servers) {
        const before = cpuMs(server);
        const result = await autocannon({ ...options, url: `${server.origin}/many/${items}` });
        refuseFailures(result, `${server.name} /many/${items}`);
        runs.get(server)!.push((cpuMs(server) - before) / result.requests.total);
      }
    }
    const [switchyardMs, bareMs] = servers.map((s) => median(runs.get(s)!)) as [number, number];
    points.push({ items, switchyardMs, bareMs, ratio: switchyardMs / bareMs });
  }
  return points;
}

/**
 * Soft navigations through the bench page's 20 nav links, in order, round and round; after each
 * count in `counts`, the JS heap and the DOM nodes once garbage is collected.
 */
export async function navigationCurve(
  browser: Browser,
  origin: string,
  counts: number[],
): Promise<NavigationPoint[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(`${origin}/items/1`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.documentElement.dataset.router === 'ready');
    // Gone after a full page load: every navigation below must have been soft.
    await page.evaluate(() => ((window as { benchMark?: boolean }).benchMark = true));
    const points: NavigationPoint[] = [];
    let done = 0;
    for (const navigations of [...counts].sort((a, b) => a - b)) {
      for (; done < navigations; done++) {
        const next = ((done + 1) % 20) + 1;
        await page.click(`nav a[href="/items/${next}"]`);
        await page.waitForFunction(
          (id) => document.querySelector('h1')?.textContent === `Items for ${id}`,
          String(next),
        );
      }
      if (!(await page.evaluate(() => (window as { benchMark?: boolean }).benchMark)))
        throw new Error('a navigation of the heap curve loaded a whole document');
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const { nodes } = await cdp.send('Memory.getDOMCounters');
      points.push({ navigations, heapMiB: usedSize / 2 ** 20, domNodes: nodes });
    }
    return points;
  } finally {
    await context.close();
  }
}
