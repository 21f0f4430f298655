/**
 * Instructions per request, counted by valgrind's callgrind in the server process: the same
 * count for the same build and requests whatever else the machine runs, where CPU time moves by
 * a tenth from run to run on a shared machine. Each server runs under valgrind with counting off,
 * answers its warm-up requests, has a full collection, then counts the measured requests, sent one
 * at a time over one connection by the bench (not under valgrind).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FRAMEWORK_ROOT } from '../../server/vite/vite-config';
import { median } from './load';
import { startServer, stopServer, type RunningServer } from './servers';

/** Instructions per request of every process of each server, for one page. */
export interface InstructionCounts {
  page: string;
  switchyard: number[];
  bare: number[];
}

export interface InstructionFigures {
  plain: InstructionCounts;
  cheap: InstructionCounts;
  settings: { warmUpRequests: number; measuredRequests: number; processes: number; nodeOptions: string[] };
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
}

/** The two sides of one page: medians, their ratio and difference, and how far processes differ. */
export function pairInstructions({
  switchyard,
  bare,
}: Pick<InstructionCounts, 'switchyard' | 'bare'>): InstructionPair {
  const sy = median(switchyard);
  const b = median(bare);
  const spreadOf = (counts: number[], mid: number) => (Math.max(...counts) - Math.min(...counts)) / mid;
  return {
    switchyard: sy,
    bare: b,
    ratio: sy / b,
    overhead: sy - b,
    spread: Math.max(spreadOf(switchyard, sy), spreadOf(bare, b)),
  };
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
/** Under valgrind a request takes about half a second counted, a tenth uncounted. */
const REQUEST_TIMEOUT_MS = 30_000;
const CONTROL_TIMEOUT_MS = 60_000;

/**
 * Requests each counted process answers uncounted first, then counted, on each page. Under
 * valgrind a request takes a tenth of a second uncounted and half a second counted: the whole
 * step, two processes per side at once, takes minutes.
 */
export const WARM_UP_REQUESTS = 200;
export const MEASURED_REQUESTS = 30;

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
        pages: [pages.plain, pages.cheap],
        warmUpRequests: WARM_UP_REQUESTS,
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
  return {
    plain: { page: pages.plain, switchyard: side('switchyard', 0), bare: side('bare', 0) },
    cheap: { page: pages.cheap, switchyard: side('switchyard', 1), bare: side('bare', 1) },
    settings: {
      warmUpRequests: WARM_UP_REQUESTS,
      measuredRequests: MEASURED_REQUESTS,
      processes,
      nodeOptions: NODE_OPTIONS,
    },
  };
}

/** A counted process is killed past this, whatever it is doing. */
const PROCESS_TIMEOUT_MS = 15 * 60_000;

interface CountOptions {
  outDir: string;
  /** Where valgrind's files go; emptied first. */
  workDir: string;
  pages: string[];
  warmUpRequests: number;
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

/** One process of `name` under callgrind: instructions per request on each page, in order. */
export async function countInstructions(
  name: 'switchyard' | 'bare',
  label: string,
  { outDir, workDir, pages, warmUpRequests, measuredRequests, timeoutMs }: CountOptions,
): Promise<number[]> {
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
    const counts: number[] = [];
    for (const [i, page] of pages.entries()) {
      await sendRequests(server, page, warmUpRequests);
      await collectGarbage(server);
      await control('--instr=on');
      await control('--zero');
      await sendRequests(server, page, measuredRequests);
      await control('--dump');
      await control('--instr=off');
      counts.push(callgrindTotal(readFileSync(`${outFile}.${i + 1}`, 'utf8')) / measuredRequests);
    }
    return counts;
  } finally {
    clearTimeout(deadline);
    await stopServer(server);
  }
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
