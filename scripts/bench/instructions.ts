/**
 * Instructions per request, counted by valgrind's callgrind in the server process: the same
 * count for the same build and requests whatever else the machine runs, where CPU time moves by
 * a tenth from run to run on a shared machine. Each server runs under valgrind with counting off,
 * answers its warm-up requests, then counts several windows of requests, each after a full
 * collection, sent one at a time over one connection by the bench (not under valgrind).
 *
 * V8's optimizing compiler runs on the server's own thread here (`--single-threaded`), for
 * thousands of requests, a few functions at a time: one compilation is some 40 M instructions,
 * two or three requests' worth, landing in whichever window it lands in. Callgrind names it
 * (`Runtime_CompileOptimized`), so each window's count is taken without it: what the request
 * itself costs, once the code it runs is what it will be (docs/performance.md).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FRAMEWORK_ROOT } from '../../server/vite/vite-config';
import { median } from './load';
import { startServer, stopServer, type RunningServer } from './servers';

/** One window of one process, per request: all callgrind counted, and its optimizing compiler's share. */
export interface WindowCount {
  total: number;
  compiling: number;
}

/** Instructions per request of every process of each server, for one page. */
export interface InstructionCounts {
  page: string;
  /** Each process's figure: the median of its windows, the optimizing compiler left out. */
  switchyard: number[];
  bare: number[];
  /** Every window of every process (runs from before windows were counted have none). */
  windows?: Record<'switchyard' | 'bare', WindowCount[][]>;
}

export interface InstructionFigures {
  plain: InstructionCounts;
  cheap: InstructionCounts;
  settings: {
    /** Before the first page's windows; the second page's own warm-up is `laterWarmUpRequests`. */
    warmUpRequests: number;
    laterWarmUpRequests?: number;
    /** Requests in each window. */
    measuredRequests: number;
    /** Windows per page and process (one in runs from before windows were counted). */
    windows?: number;
    processes: number;
    nodeOptions: string[];
  };
}

export interface InstructionPair {
  /** Median of each side's processes. */
  switchyard: number;
  bare: number;
  ratio: number;
  /** Instructions per request Switchyard runs beyond the bare server. */
  overhead: number;
  /** The widest distance between two processes of one side, over its median: 0.002 is 0.2 %. */
  spread: number;
  /** The widest distance between two windows of one process, over their median (0 without windows). */
  windowSpread: number;
  /** Instructions per request the optimizing compiler added to each side's windows, their median. */
  compiling: { switchyard: number; bare: number } | undefined;
}

/** The two sides of one page: medians, their ratio and difference, and how far processes differ. */
export function pairInstructions({
  switchyard,
  bare,
  windows,
}: Pick<InstructionCounts, 'switchyard' | 'bare' | 'windows'>): InstructionPair {
  const sy = median(switchyard);
  const b = median(bare);
  const spreadOf = (counts: number[], mid = median(counts)) =>
    (Math.max(...counts) - Math.min(...counts)) / mid;
  const windowSpread = windows
    ? Math.max(
        ...[...windows.switchyard, ...windows.bare].map((process) => spreadOf(process.map(withoutCompiling))),
      )
    : 0;
  const compilingOf = (processes: WindowCount[][]) =>
    median(processes.flat().map((window) => window.compiling));
  return {
    switchyard: sy,
    bare: b,
    ratio: sy / b,
    overhead: sy - b,
    spread: Math.max(spreadOf(switchyard, sy), spreadOf(bare, b)),
    windowSpread,
    compiling: windows && { switchyard: compilingOf(windows.switchyard), bare: compilingOf(windows.bare) },
  };
}

/** A window's count without the optimizing compiler's. */
export function withoutCompiling(window: WindowCount): number {
  return window.total - window.compiling;
}

/** One process's figure: the median of its windows, each without the optimizing compiler. */
export function processFigure(windows: WindowCount[]): number {
  return median(windows.map(withoutCompiling));
}

/**
 * The instructions V8's optimizing compiler ran in a dump: the inclusive cost of its entry points
 * (a function made optimized code, on its own or while running a loop), from
 * `callgrind_annotate --inclusive=yes`'s listing. 0 when it did not run.
 */
export function compilingTotal(inclusiveListing: string): number {
  let sum = 0;
  for (const line of inclusiveListing.split('\n')) {
    const match = /^\s*([\d,]+)\s.*\bv8::internal::(Runtime_CompileOptimized(?:OSR)?)\(/.exec(line);
    if (match) sum += Number(match[1]!.replaceAll(',', ''));
  }
  return sum;
}

/**
 * The instructions (`Ir`) a callgrind dump counted in all, from its `totals:` line (its
 * `summary:` line in files without one). Throws on a file that has neither, or does not count `Ir`.
 */
export function callgrindTotal(dump: string): number {
  const events = /^events:\s*(.+)$/m.exec(dump)?.[1]?.trim().split(/\s+/) ?? [];
  const at = events.indexOf('Ir');
  const line = /^totals:\s*(.+)$/m.exec(dump) ?? /^summary:\s*(.+)$/m.exec(dump);
  const value = line?.[1]?.trim().split(/\s+/)[at];
  if (at === -1 || value === undefined || !/^\d+$/.test(value)) {
    throw new Error('not a callgrind dump counting instructions (Ir): no events and totals lines');
  }
  return Number(value);
}

/**
 * Node's options for a counted server, the same on both sides. The real JIT (not `--jitless`,
 * which would count another program); no background threads, so that compilation and collection
 * happen at the same points of every run; a young generation of the size a loaded server grows
 * it to, from the start; fixed seeds for hashing and `Math.random`.
 */
export const NODE_OPTIONS = [
  '--single-threaded',
  '--min-semi-space-size=16',
  '--max-semi-space-size=16',
  '--hash-seed=1',
  '--random-seed=1',
  '--expose-gc',
  '--require',
  join(FRAMEWORK_ROOT, 'scripts/bench/gc-on-signal.cjs'),
];

const VALGRIND = '/usr/bin/valgrind';
/**
 * Under valgrind a request takes about half a second counted, a thirtieth uncounted, but the
 * first few, and one with a compilation in it, take many times that on a loaded machine: 30 s
 * was seen not to be enough for the first requests, with six processes at once under a load of 15.
 */
const REQUEST_TIMEOUT_MS = 300_000;
const CONTROL_TIMEOUT_MS = 60_000;

/**
 * Requests each counted process answers uncounted before the first page's windows, and before
 * the second page's (most of whose code the first has warmed). Counted without the compiler,
 * Switchyard's count on the 200-item page is flat from about 400 requests but for a stretch
 * around 800–1,100 where some of its code runs deoptimized (7–10 % more, in every process),
 * and back by 1,500; the bare server's is within 1 % from 400 on (docs/performance.md). All
 * that callgrind counts keeps falling for thousands of requests more, as compilations thin
 * out. Which state a process is in after its warm-up depends on more than the requests: one
 * run found every process, the bare server's too, in a slower one (compiling and
 * deoptimizing the same functions again and again), so the ratio to the bare server says less
 * than an A/B of two builds run together, compared window by window. Under valgrind a request
 * takes some 30 ms uncounted and half a second counted, alone on the machine.
 */
export const WARM_UP_REQUESTS = 1500;
export const LATER_WARM_UP_REQUESTS = 500;
/**
 * Windows per page and process, and requests in each: about one scavenge per window, as the
 * young generation (16 MiB) fills after some 22 requests, and starts each window empty.
 */
export const WINDOWS = 4;
export const MEASURED_REQUESTS = 25;

/**
 * `processes` of each server counted at the same time (they share no state: the counts do not
 * depend on the machine's load), the bench page first, then the cheap page in the same process.
 */
export async function measureInstructions(options: {
  builds: Record<'switchyard' | 'bare', string>;
  workDir: string;
  pages: { plain: string; cheap: string };
  processes: number;
}): Promise<InstructionFigures> {
  const { builds, workDir, pages, processes } = options;
  const runs = (['switchyard', 'bare'] as const).flatMap((name) =>
    Array.from({ length: processes }, (_, i) =>
      countInstructions(name, `${name}-${i + 1}`, {
        outDir: builds[name],
        workDir: join(workDir, `${name}-${i + 1}`),
        pages: [
          { path: pages.plain, warmUpRequests: WARM_UP_REQUESTS },
          { path: pages.cheap, warmUpRequests: LATER_WARM_UP_REQUESTS },
        ],
        windows: WINDOWS,
        measuredRequests: MEASURED_REQUESTS,
        timeoutMs: PROCESS_TIMEOUT_MS,
      }).then((counts) => ({ name, counts })),
    ),
  );
  const settled = await Promise.allSettled(runs);
  const failed = settled.find((run) => run.status === 'rejected');
  if (failed) throw failed.reason;
  const done = settled.flatMap((run) => (run.status === 'fulfilled' ? [run.value] : []));
  const side = (name: 'switchyard' | 'bare', page: number) =>
    done.filter((run) => run.name === name).map((run) => run.counts[page]!);
  const counts = (page: number, path: string): InstructionCounts => {
    const windows = { switchyard: side('switchyard', page), bare: side('bare', page) };
    return {
      page: path,
      switchyard: windows.switchyard.map(processFigure),
      bare: windows.bare.map(processFigure),
      windows,
    };
  };
  return {
    plain: counts(0, pages.plain),
    cheap: counts(1, pages.cheap),
    settings: {
      warmUpRequests: WARM_UP_REQUESTS,
      laterWarmUpRequests: LATER_WARM_UP_REQUESTS,
      measuredRequests: MEASURED_REQUESTS,
      windows: WINDOWS,
      processes,
      nodeOptions: NODE_OPTIONS,
    },
  };
}

/** A counted process is killed past this, whatever it is doing. */
const PROCESS_TIMEOUT_MS = 20 * 60_000;

interface CountOptions {
  outDir: string;
  /** Where valgrind's files go; emptied first. */
  workDir: string;
  /** In order, each with the requests answered uncounted before its windows. */
  pages: { path: string; warmUpRequests: number }[];
  windows: number;
  /** Requests in each window. */
  measuredRequests: number;
  /** Killed past this, whatever it is doing. */
  timeoutMs: number;
}

/** Whether valgrind is installed: the row is left out without it. */
export async function hasValgrind(): Promise<boolean> {
  try {
    await promisify(execFile)(VALGRIND, ['--version'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * One process of `name` under callgrind: for each page in order, its windows, each a full
 * collection (uncounted) and then `measuredRequests` counted.
 */
export async function countInstructions(
  name: 'switchyard' | 'bare',
  label: string,
  { outDir, workDir, pages, windows, measuredRequests, timeoutMs }: CountOptions,
): Promise<WindowCount[][]> {
  const outFile = join(workDir, `${label}.callgrind`);
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  const server = await startServer(name, outDir, {
    launcher: [
      VALGRIND,
      '--tool=callgrind',
      // V8 writes machine code at run time: without this, valgrind would run stale translations.
      '--smc-check=all-non-file',
      '--instr-atstart=no',
      '--trace-children=no',
      `--callgrind-out-file=${outFile}`,
      `--log-file=${join(workDir, `${label}.valgrind.log`)}`,
    ],
    nodeOptions: NODE_OPTIONS,
    // Node starting under valgrind on a busy 2-core machine: two minutes were seen not to be enough.
    announceTimeoutMs: 300_000,
  });
  const deadline = setTimeout(() => server.child.kill('SIGKILL'), timeoutMs);
  try {
    const pid = String(server.child.pid);
    const control = (flag: string) =>
      promisify(execFile)('callgrind_control', [flag, pid], { timeout: CONTROL_TIMEOUT_MS });
    const counts: WindowCount[][] = [];
    let dumps = 0;
    for (const { path, warmUpRequests } of pages) {
      await sendRequests(server, path, warmUpRequests);
      const page: WindowCount[] = [];
      for (let i = 0; i < windows; i++) {
        await collectGarbage(server);
        await control('--instr=on');
        await control('--zero');
        await sendRequests(server, path, measuredRequests);
        await control('--dump');
        await control('--instr=off');
        page.push(await readWindow(`${outFile}.${++dumps}`, measuredRequests));
      }
      counts.push(page);
    }
    return counts;
  } finally {
    clearTimeout(deadline);
    await stopServer(server);
  }
}

/** A window's dump, per request: its total, and the optimizing compiler's share of it. */
async function readWindow(file: string, requests: number): Promise<WindowCount> {
  const total = callgrindTotal(readFileSync(file, 'utf8'));
  const { stdout } = await promisify(execFile)(
    'callgrind_annotate',
    ['--inclusive=yes', '--threshold=100', file],
    { maxBuffer: 256 * 1024 * 1024, timeout: CONTROL_TIMEOUT_MS },
  );
  return { total: total / requests, compiling: compilingTotal(stdout) / requests };
}

/** `count` GETs one after the other over one kept-alive connection, each read to its end. */
async function sendRequests(server: RunningServer, path: string, count: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (let i = 0; i < count; i++) {
      await new Promise<void>((resolve, reject) => {
        const request = http.get(server.origin + path, { agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`${server.name} ${path}: status ${res.statusCode}`));
          res.resume();
          res.once('end', resolve);
          res.once('error', reject);
        });
        request.once('timeout', () => request.destroy(new Error(`${server.name} ${path}: no answer`)));
        request.once('error', reject);
      });
    }
  } finally {
    agent.destroy();
  }
}

/** A full collection in the server (see `gc-on-signal.cjs`), awaited through its stdout. */
function collectGarbage(server: RunningServer): Promise<void> {
  const stdout = server.child.stdout!;
  return new Promise((resolve, reject) => {
    const done = (chunk: Buffer) => {
      if (!chunk.toString().includes('switchyard-bench: collected')) return;
      clearTimeout(timer);
      stdout.off('data', done);
      resolve();
    };
    const timer = setTimeout(() => {
      stdout.off('data', done);
      reject(new Error(`${server.name}: no full collection within ${CONTROL_TIMEOUT_MS / 1000} s`));
    }, CONTROL_TIMEOUT_MS);
    stdout.on('data', done);
    server.child.kill('SIGUSR2');
  });
}
