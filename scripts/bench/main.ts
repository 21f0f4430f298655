/**
 * `npm run bench`: Switchyard side by side with a bare Express + React server rendering the
 * same page from the same data, in one run, taking turns. Prints a table with every ratio next
 * to its target and writes the same figures as JSON to bench-results/, with the commit and the
 * machine's load. `--quick` runs one short rep of each (for development: the figures are
 * rougher). `--compare <old.json>` then prints how each ratio moved since that run;
 * `--compare <old.json> <new.json>` compares two saved runs and measures nothing.
 * `--only instructions` counts instructions per request under valgrind and nothing else: the
 * figure to compare two commits by on a busy machine (with `--compare`, too). A full run leaves
 * it out: it takes six to nine minutes, and its ratio is no verdict on the CPU target.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_PATH, hasChromium, INSTALL_HINT, launchChromium } from '../../test/e2e/chromium';
import { FRAMEWORK_ROOT } from '../../server/vite/vite-config';
import { measureAdoption, type AdoptionFigures } from './adoption';
import { browse, medianFigures, PROFILES, type BrowserFigures } from './browser';
import { buildBare } from './build-bare';
import { measureClick, type ClickFigures } from './click-cost';
import { firstLoadJs, pageData, richPageData, routerRuntime, sizesOf } from './bytes';
import {
  BROWSER_ENCODING,
  coldStart,
  loadRun,
  median,
  pairRounds,
  poolCopies,
  ttfbOf,
  warmUp,
  type LoadFigures,
} from './load';
import { compareReport } from './compare';
import { curveCharts, curveTables } from './curve-report';
import { itemCurve, navigationCurve, routeCurve, type NavigationPoint } from './curves';
import { microBenchmarks } from './micro';
import { hasValgrind, measureInstructions, type InstructionFigures } from './instructions';
import { printReport, type SavedRun } from './report';
import { measureSentry } from './sentry';
import { measureTypecheck, npmTypescript7, repositoryTypescript, writeTypecheckApps } from './typecheck';
import { ROUTES } from './typed-routes-app';
import { rssMiB, startServer, stopServer, type RunningServer, type ServerName } from './servers';

const quick = process.argv.includes('--quick');
const only = onlyStep(process.argv.slice(2));
const compareWith = compareFiles(process.argv.slice(2));
if (compareWith.length === 2) {
  console.log(compareReport(compareWith[0]!, compareWith[1]!));
  process.exit(0);
}
/** Browser passes per profile and server: the median of each step is reported. */
const BROWSER_PASSES = quick ? 1 : 5;
// Many short rounds rather than a few long ones: a neighbour's burst then weighs on one round,
// and the median of the rounds' ratios leaves it out.
const REPS = quick ? 1 : 12;
const SECONDS = quick ? 2 : 1;
const WARM_UP_SECONDS = quick ? 1 : 2;
/**
 * Processes of each server in the CPU rows, every one run in every round and each side's runs
 * pooled: two processes of one build differ by up to 0.1 × in the same minutes, so one process
 * per side cannot tell a 1.18 × target from 1.28 × (docs/performance.md, "Why the ratio moves").
 */
const COPIES = quick ? 1 : 3;
/**
 * Requests each process answers before a CPU row is measured. A process keeps getting cheaper for
 * its first few thousand requests (the JIT, the heap growing to its working size), the bare
 * server faster than Switchyard: a row taken earlier reads lower than the ratio the servers
 * settle at.
 */
const WARM_UP_REQUESTS = quick ? 300 : 6000;
/** Before each later CPU row: its page or its encoding takes paths the processes have not run. */
const WARM_UP_REQUESTS_LATER = quick ? 300 : 1500;
/**
 * `tsc` runs of the typed-routes app with its route types, each beside one without: one, as the
 * ratio of CPU times moves little from run to run and each run takes a minute of CPU.
 */
const TSC_RUNS = 1;
const PAGE = '/items/1';
/** The same page from a generator that costs next to nothing: the framework's share at its largest. */
const CHEAP_PAGE = '/cheap/1';
const OUT = join(FRAMEWORK_ROOT, '.switchyard/bench');
const builds = {
  switchyard: join(OUT, 'switchyard'),
  bare: join(OUT, 'bare'),
  demo: join(OUT, 'demo'),
} satisfies Record<ServerName, string>;

const step = (what: string) => console.log(`▶ ${what}`);

/**
 * Processes of each server whose instructions are counted, each side's figure their median.
 * Processes of one build count alike, window by window; three outvote one that does not.
 */
const INSTRUCTION_PROCESSES = quick ? 1 : 3;

const loadAtStart = loadavg()[0]!;
step(`building Switchyard (bench app${only ? '' : ' and demo'}) and the bare server`);
for (const [app, out] of [
  ['scripts/bench/app', builds.switchyard],
  ...(only ? [] : [['src/app', builds.demo] as const]),
] as const) {
  execFileSync(process.execPath, ['bin/switchyard.js', 'build', '--app', app, '--out', out], {
    cwd: FRAMEWORK_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
await buildBare(builds.bare);

if (only === 'instructions') {
  const instructions = await countInstructionsStep();
  if (!instructions) process.exit(1);
  saveRun({ ...runHeader(), only, instructions });
  process.exit(0);
}

const servers: RunningServer[] = [];
try {
  // Copies alternate, Switchyard first: the first of each side also serves the rows measured on one.
  for (let copy = 0; copy < COPIES; copy++) {
    for (const name of ['switchyard', 'bare'] as const) servers.push(await startServer(name, builds[name]));
  }
  const copies = [...servers];
  const [sy, bare] = copies as [RunningServer, RunningServer];

  /**
   * Both servers under the same load: `REPS` rounds, in each of which every process runs once,
   * the two sides interleaved and the order reversed every other round; each side's runs of a
   * round pooled into one figure. Medians of the rounds, and of each round's ratio.
   */
  const sideBySide = async (headers: Record<string, string>, page: string, warmUpRequests: number) => {
    for (const server of copies) await warmUp(server, page, warmUpRequests, headers);
    const runs: Record<'switchyard' | 'bare', LoadFigures[]> = { switchyard: [], bare: [] };
    for (let rep = 0; rep < REPS; rep++) {
      const round: Record<'switchyard' | 'bare', LoadFigures[]> = { switchyard: [], bare: [] };
      for (const server of rep % 2 ? [...copies].reverse() : copies) {
        round[server.name as 'switchyard' | 'bare'].push(await loadRun(server, page, SECONDS, headers, 0));
      }
      runs.switchyard.push(poolCopies(round.switchyard));
      runs.bare.push(poolCopies(round.bare));
    }
    return {
      switchyard: medians(runs.switchyard),
      bare: medians(runs.bare),
      paired: pairRounds(runs.switchyard, runs.bare, COPIES),
    };
  };
  step(
    `load: ${PAGE}, ${REPS} rounds of ${SECONDS} s per process, ${COPIES} processes per server, no compression`,
  );
  const plain = await sideBySide({}, PAGE, WARM_UP_REQUESTS);
  step(`load: ${PAGE}, with Accept-Encoding: ${BROWSER_ENCODING}`);
  const compressed = await sideBySide({ 'accept-encoding': BROWSER_ENCODING }, PAGE, WARM_UP_REQUESTS_LATER);
  step(`load: ${CHEAP_PAGE}, the same rounds, no compression`);
  const cheap = await sideBySide({}, CHEAP_PAGE, WARM_UP_REQUESTS_LATER);
  const rss = { switchyard: rssMiB(sy), bare: rssMiB(bare) };

  step('time to first byte (median of 20 each)');
  const ttfb = await ttfbOf([sy, bare], PAGE, 20);

  step('bytes');
  const bytes = {
    html: { switchyard: await sizesOf(sy.origin + PAGE), bare: await sizesOf(bare.origin + PAGE) },
    js: { switchyard: await firstLoadJs(sy.origin, PAGE), bare: await firstLoadJs(bare.origin, PAGE) },
    routerRuntime: await routerRuntime(),
    pageData: await pageData(sy.origin, '/items/2', PAGE),
    richPageData: richPageData('2'),
  };

  step(
    `Sentry: first-load JS with tracing off and on; CPU per request with tracing off, ${REPS} × ${SECONDS} s`,
  );
  const sentry = await measureSentry({
    outDir: builds.switchyard,
    noSentry: sy,
    page: PAGE,
    reps: REPS,
    seconds: SECONDS,
    warmUpSeconds: WARM_UP_SECONDS,
    medians,
  });

  step('browser: Chromium on loopback and on the slow profile');
  const browserFigures: Record<string, Record<'switchyard' | 'bare', BrowserFigures>> = {};
  let adoption: AdoptionFigures | undefined;
  let click: ClickFigures | undefined;
  let navigations: NavigationPoint[] | undefined;
  if (!hasChromium()) {
    console.warn(`  skipped: Chromium was not found at ${CHROMIUM_PATH}. ${INSTALL_HINT}`);
  } else {
    const browser = await launchChromium();
    try {
      for (const profile of PROFILES) {
        // Passes alternate between the two servers, so a busy moment of the machine hits both.
        const passes: Record<'switchyard' | 'bare', BrowserFigures[]> = { switchyard: [], bare: [] };
        for (let pass = 0; pass < BROWSER_PASSES; pass++) {
          passes.switchyard.push(await browse(browser, sy.origin, profile));
          passes.bare.push(await browse(browser, bare.origin, profile));
        }
        browserFigures[profile.name] = {
          switchyard: medianFigures(passes.switchyard),
          bare: medianFigures(passes.bare),
        };
      }
      step('browser: what a click re-renders, and its main-thread time to the next paint');
      click = await measureClick(browser, sy.origin, bare.origin, quick ? 1 : BROWSER_PASSES);
      step('adoption: the packed tarball in a fresh app, and init to a hydrated dev page');
      adoption = await measureAdoption(FRAMEWORK_ROOT, join(OUT, 'adoption'), browser);
      step('curve: JS heap and DOM nodes after 100 and 1 000 soft navigations');
      navigations = await navigationCurve(browser, sy.origin, quick ? [20, 100] : [100, 1000]);
    } finally {
      await browser.close();
    }
  }

  step('demo feed');
  const demo = await startServer('demo', builds.demo);
  servers.push(demo);
  const feed = {
    load: await loadRun(demo, '/', SECONDS, { 'accept-encoding': BROWSER_ENCODING }, WARM_UP_SECONDS),
    ttfbMs: (await ttfbOf([demo], '/', 20)).demo!,
    html: await sizesOf(demo.origin + '/'),
    rssMiB: rssMiB(demo),
  };

  step('cold start (spawn to first full response)');
  const cold = await coldStart(
    [
      { name: 'switchyard', outDir: builds.switchyard },
      { name: 'bare', outDir: builds.bare },
    ],
    PAGE,
    quick ? 1 : 3,
  );

  step('micro-benchmarks');
  const micro = await microBenchmarks(quick ? 5 : 9);

  step('curve: server CPU per request by page size (200, 2 000, 20 000 items)');
  const items = await itemCurve([sy, bare], [200, 2000, 20_000], quick ? 1 : 3);
  const routeCounts = quick ? [10, 100, 1000] : [10, 100, 1000, 5000];
  step(`curve: route matching, build, start and memory by route count (${routeCounts.join(', ')})`);
  const routes = await routeCurve(FRAMEWORK_ROOT, join(OUT, 'curves'), routeCounts);

  step(`tsc --noEmit on ${ROUTES} routes, with and without their route types, ${TSC_RUNS} × each`);
  const projects = writeTypecheckApps(FRAMEWORK_ROOT, join(OUT, 'typecheck'));
  const typecheck = [await measureTypecheck(projects, repositoryTypescript(), TSC_RUNS)];
  const typescript7 = npmTypescript7(join(OUT, 'typescript-7'));
  if (typescript7) typecheck.push(await measureTypecheck(projects, typescript7, TSC_RUNS));
  else console.warn('TypeScript 7 could not be installed from npm: its tsc row is left out');

  const results = {
    ...runHeader(),
    settings: {
      reps: REPS,
      seconds: SECONDS,
      copies: COPIES,
      warmUpRequests: WARM_UP_REQUESTS,
      connections: 8,
      page: PAGE,
      cheapPage: CHEAP_PAGE,
    },
    load: { plain, compressed, cheap },
    ttfbMs: ttfb,
    rssMiB: rss,
    coldStartMs: cold,
    bytes,
    sentry,
    browser: browserFigures,
    click,
    feed,
    micro,
    adoption,
    typecheck,
    curves: { routes, items, ...(navigations ? { navigations } : {}) },
  };
  const file = saveRun(results);
  console.log(`\n${curveTables(results.curves)}`);
  const charts = file.replace(/\.json$/, '-curves.md');
  writeFileSync(charts, `${curveTables(results.curves)}\n\n${curveCharts(results.curves)}\n`);
  console.log(`\nThe curves' tables and charts written to ${charts}`);
} finally {
  for (const server of servers) await stopServer(server);
}

/**
 * Instructions per request of both servers on both pages, each server in processes of its own
 * under valgrind; nothing (and a warning) when valgrind is not installed.
 */
async function countInstructionsStep(): Promise<InstructionFigures | undefined> {
  if (!(await hasValgrind())) {
    console.warn('  skipped: valgrind was not found at /usr/bin/valgrind; the instruction rows are left out');
    return undefined;
  }
  step(
    `instructions per request under callgrind: ${PAGE} then ${CHEAP_PAGE}, ` +
      `${INSTRUCTION_PROCESSES} process${INSTRUCTION_PROCESSES > 1 ? 'es' : ''} per server at once`,
  );
  const started = performance.now();
  const figures = await measureInstructions({
    builds,
    workDir: join(OUT, 'callgrind'),
    pages: { plain: PAGE, cheap: CHEAP_PAGE },
    processes: INSTRUCTION_PROCESSES,
  });
  console.log(`  counted in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return figures;
}

/** What every saved run starts with: when, which commit, on what machine under what load. */
function runHeader() {
  return {
    date: new Date().toISOString(),
    commit: commitOf(FRAMEWORK_ROOT),
    quick,
    machine: {
      node: process.version,
      cpus: cpus().length,
      loadAverage: { atStart: loadAtStart, atEnd: loadavg()[0]! },
    },
  };
}

/** Prints the run's table, writes its JSON to bench-results/ and compares it when asked: the file. */
function saveRun(results: SavedRun & { date: string }): string {
  printReport(results);
  mkdirSync(join(FRAMEWORK_ROOT, 'bench-results'), { recursive: true });
  const file = join(FRAMEWORK_ROOT, 'bench-results', `bench-${results.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`\nWritten to ${file}`);
  if (compareWith[0]) console.log(`\n${compareReport(compareWith[0], results)}`);
  return file;
}

/** The one step `--only` names, or none; a step it does not know stops the bench at once. */
function onlyStep(args: string[]): 'instructions' | undefined {
  const at = args.indexOf('--only');
  if (at === -1) return undefined;
  if (args[at + 1] !== 'instructions') {
    throw new Error(`--only takes one step, 'instructions' (got ${args[at + 1] ?? 'nothing'})`);
  }
  return 'instructions';
}

function medians(runs: LoadFigures[]): LoadFigures {
  const of = (key: keyof LoadFigures) => median(runs.map((run) => run[key]));
  return {
    requests: of('requests'),
    reqPerS: of('reqPerS'),
    cpuMsPerRequest: of('cpuMsPerRequest'),
    p50Ms: of('p50Ms'),
    p99Ms: of('p99Ms'),
  };
}

/** The runs `--compare` names, read before anything is measured so that a bad path fails at once. */
function compareFiles(args: string[]): SavedRun[] {
  const at = args.indexOf('--compare');
  if (at === -1) return [];
  const files = args
    .slice(at + 1)
    .filter((arg) => !arg.startsWith('--'))
    .slice(0, 2);
  if (files.length === 0) throw new Error('--compare needs the JSON file of an earlier run');
  return files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as SavedRun);
}

/** `HEAD`'s short hash, with `+` when the work tree differs from it; `unknown` outside git. */
function commitOf(root: string): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    return (
      git('rev-parse', '--short', 'HEAD') + (git('status', '--porcelain', '--untracked-files=no') ? '+' : '')
    );
  } catch {
    return 'unknown';
  }
}
