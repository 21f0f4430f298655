/**
 * Server-side measures: a load run with autocannon (server CPU per request from the process's
 * own utime+stime, the steadiest figure on a shared machine), time to first byte on an idle
 * server, and cold start from spawn to the first full response.
 */
import http from 'node:http';
import autocannon from 'autocannon';
import { cpuMs, startServer, stopServer, type RunningServer, type ServerName } from './servers';

export interface LoadFigures {
  requests: number;
  reqPerS: number;
  cpuMsPerRequest: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Two servers measured in the same rounds: the medians of each, and the medians of the ratios
 * (and differences) of the two runs of each round. A round's two runs follow each other within
 * seconds, so they share the machine's load: a neighbour's burst moves both figures of the round
 * and barely its ratio, where the ratio of two medians mixes rounds of different loads.
 */
export interface PairedFigures {
  cpuRatio: number;
  /** Microseconds of CPU per request the first server spends beyond the second. */
  cpuOverheadUs: number;
  throughputRatio: number;
  /** How far the rounds' CPU ratios spread: the middle half of them, lowest to highest. */
  cpuRatioQuartiles: [number, number];
  rounds: number;
  /** Processes of each server in every round (absent in runs from before copies were pooled: one). */
  copies?: number;
}

/** Per-round ratios of `a` to `b`, run `i` of each being one round. */
export function pairRounds(a: LoadFigures[], b: LoadFigures[], copies = 1): PairedFigures {
  const rounds = a.map((run, i) => ({ run, other: b[i]! }));
  const ratios = rounds.map(({ run, other }) => run.cpuMsPerRequest / other.cpuMsPerRequest);
  return {
    cpuRatio: median(ratios),
    cpuOverheadUs: median(
      rounds.map(({ run, other }) => (run.cpuMsPerRequest - other.cpuMsPerRequest) * 1000),
    ),
    throughputRatio: median(rounds.map(({ run, other }) => run.reqPerS / other.reqPerS)),
    cpuRatioQuartiles: [quantile(ratios, 0.25), quantile(ratios, 0.75)],
    rounds: rounds.length,
    copies,
  };
}

/**
 * The runs of several processes of one server in one round, taken as one process: all their CPU
 * over all their requests, their mean throughput, their median latencies. Two processes of the
 * same build differ by more than one process does from round to round (when its collector runs,
 * what its JIT made of the code): a side of several processes averages that out.
 */
export function poolCopies(runs: LoadFigures[]): LoadFigures {
  const requests = runs.reduce((sum, run) => sum + run.requests, 0);
  const cpuMs = runs.reduce((sum, run) => sum + run.cpuMsPerRequest * run.requests, 0);
  return {
    requests,
    reqPerS: runs.reduce((sum, run) => sum + run.reqPerS, 0) / runs.length,
    cpuMsPerRequest: cpuMs / requests,
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
  };
}

/** Requests before a measured window, so that it sees a process whose JIT and heap have settled. */
export async function warmUp(
  server: RunningServer,
  path: string,
  requests: number,
  headers: Record<string, string> = {},
): Promise<void> {
  refuseFailures(
    await autocannon({ url: server.origin + path, connections: 8, amount: requests, headers }),
    `${server.name} ${path}`,
  );
}

/** A load run whose answers were not all 2xx measured errors, not the page: the bench stops. */
export function refuseFailures(result: { non2xx: number; errors: number }, what: string): void {
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${what}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low]! + (sorted[Math.ceil(at)]! - sorted[low]!) * (at - low);
}

export const BROWSER_ENCODING = 'gzip, deflate, br, zstd';

export async function loadRun(
  server: RunningServer,
  path: string,
  seconds: number,
  headers: Record<string, string> = {},
  warmUpSeconds = 2,
): Promise<LoadFigures> {
  const url = server.origin + path;
  // Warm-up outside the measured window: the JIT has more of Switchyard's code to compile, and
  // a cold start is measured on its own.
  if (warmUpSeconds > 0) await autocannon({ url, connections: 8, duration: warmUpSeconds, headers });
  const before = cpuMs(server);
  const result = await autocannon({ url, connections: 8, duration: seconds, headers });
  const cpu = cpuMs(server) - before;
  refuseFailures(result, `${server.name} ${path}`);
  return {
    requests: result.requests.total,
    reqPerS: result.requests.total / seconds,
    cpuMsPerRequest: cpu / result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

/** One GET on an idle server: milliseconds to the first byte of the body, and to its end. */
export function timedGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ ttfb: number; total: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    let ttfb = 0;
    http
      .get(url, { headers, agent: false }, (res) => {
        res.once('data', () => (ttfb = performance.now() - start));
        res.on('data', () => {});
        res.once('end', () => resolve({ ttfb, total: performance.now() - start }));
      })
      .once('error', reject);
  });
}

/** Time to first byte of `count` requests to each server, taking turns. */
export async function ttfbOf(servers: RunningServer[], path: string, count: number, headers = {}) {
  const times = new Map<ServerName, number[]>(servers.map((s) => [s.name, []]));
  for (let i = 0; i < count; i++) {
    for (const server of i % 2 ? [...servers].reverse() : servers) {
      times.get(server.name)!.push((await timedGet(server.origin + path, headers)).ttfb);
    }
  }
  return Object.fromEntries([...times].map(([name, list]) => [name, median(list)]));
}

/** Spawn to the end of the first response, `reps` times per server in turns. */
export async function coldStart(builds: { name: ServerName; outDir: string }[], path: string, reps: number) {
  const times = new Map<ServerName, number[]>(builds.map((b) => [b.name, []]));
  for (let i = 0; i < reps; i++) {
    for (const { name, outDir } of i % 2 ? [...builds].reverse() : builds) {
      const started = performance.now();
      const server = await startServer(name, outDir);
      await timedGet(server.origin + path);
      times.get(name)!.push(performance.now() - started);
      await stopServer(server);
    }
  }
  return Object.fromEntries([...times].map(([name, list]) => [name, median(list)]));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
