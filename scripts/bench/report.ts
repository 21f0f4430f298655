/**
 * The bench's table: one row per figure, Switchyard next to the bare server, the ratio and the
 * target, and whether this run met it (a miss says by how much).
 */
import type { AdoptionFigures } from './adoption';
import type { BrowserFigures } from './browser';
import type { ClickFigures } from './click-cost';
import { clickRendersVerdict, formatRendered } from './click-renders';
import type { Sizes } from './bytes';
import type { CodeSize } from './runtime';
import { pairInstructions, type InstructionCounts, type InstructionFigures } from './instructions';
import type { LoadFigures, PairedFigures } from './load';
import type { SentryFigures } from './sentry';
import type { TypecheckFigures } from './typecheck';
import type { Curves } from './curve-report';

type Pair<T> = { switchyard: T; bare: T };
/** `paired` is missing in results from before the rounds' own ratios were kept. */
type LoadPair = Pair<LoadFigures> & { paired?: PairedFigures };
export interface BenchResults {
  /** The commit measured, `+` when the work tree had changes; missing in older results. */
  commit?: string;
  machine: { node: string; cpus: number; loadAverage: { atStart: number; atEnd: number } };
  /** `cheap` is missing in results from before the cheap page was measured. */
  load: { plain: LoadPair; compressed: LoadPair; cheap?: LoadPair };
  ttfbMs: Record<string, number>;
  rssMiB: Pair<number>;
  coldStartMs: Record<string, number>;
  bytes: {
    html: Pair<Sizes>;
    js: Pair<{ files: number; raw: number; gzip: number; wire: number }>;
    routerRuntime: CodeSize & { afterPaint: CodeSize };
    pageData: { answer: Sizes; loaderRaw: number; loaderGzip: number };
    /** Missing in results from before rich loader data was encoded. */
    richPageData?: { encodedGzip: number; plainGzip: number };
  };
  /** Missing in results from before browser tracing. */
  sentry?: SentryFigures;
  browser: Record<string, Pair<BrowserFigures>>;
  /** Missing when the run had no browser, and in results from before clicks were traced. */
  click?: ClickFigures | undefined;
  feed: { load: LoadFigures; ttfbMs: number; html: Sizes; rssMiB: number };
  micro: { statusUs: number; prune10kUs: number; match1000RoutesUs: number };
  /** Missing when the run had no browser. */
  adoption?: AdoptionFigures | undefined;
  /** Missing in results from before route types were generated. */
  /**
   * One per TypeScript: the repository's, then TypeScript 7 from npm when it could be installed
   * (a single object, the repository's, in runs from before).
   */
  typecheck?: TypecheckFigures[] | TypecheckFigures;
  /** Missing in results from before the growth curves were measured. */
  curves?: Curves;
  /** Missing when valgrind is not installed, and in results from before instructions were counted. */
  instructions?: InstructionFigures;
}

/** A run of `npm run bench -- --only instructions`: the instruction rows alone. */
export interface InstructionsRun {
  commit?: string;
  machine: BenchResults['machine'];
  only: 'instructions';
  instructions: InstructionFigures;
}

/** What a run writes to bench-results/, and `--compare` reads. */
export type SavedRun = BenchResults | InstructionsRun;

type Row = [figure: string, switchyard: string, bare: string, ratio: string, target: string, verdict: string];

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const times = (r: number) => `${r.toFixed(2)} ×`;
const percent = (fraction: number) => `${(fraction * 100).toFixed(2)} %`;
/** ✓, or ✗ with how far the figure is from the target. */
const verdict = (ok: boolean, miss: string) => (ok ? '✓' : `✗ ${miss}`);

export function tableRows(r: SavedRun): Row[] {
  if ('only' in r) return instructionRows(r.instructions);
  const rows: Row[] = [];
  const loads = [
    ['no compression', r.load.plain],
    ['compressed', r.load.compressed],
    ...(r.load.cheap ? [['cheap page, no compression', r.load.cheap] as const] : []),
  ] as const;
  for (const [label, load] of loads) {
    // The median of the rounds' own ratios where the run kept them: steadier than the ratio of
    // the two medians, which can come from rounds of different loads.
    const { paired } = load;
    const cpu = paired?.cpuRatio ?? load.switchyard.cpuMsPerRequest / load.bare.cpuMsPerRequest;
    rows.push([
      `server CPU per request (${label})`,
      ms(load.switchyard.cpuMsPerRequest),
      ms(load.bare.cpuMsPerRequest),
      times(cpu),
      '≤ 1.18 ×',
      verdict(cpu <= 1.18, `by ${times(cpu - 1.18)}`),
    ]);
    // The same figure as time: what the framework adds to each request, whatever the page costs.
    const overheadUs =
      paired?.cpuOverheadUs ?? (load.switchyard.cpuMsPerRequest - load.bare.cpuMsPerRequest) * 1000;
    rows.push([
      `framework overhead per request (${label})`,
      `${Math.round(overheadUs)} µs` +
        (paired
          ? ` (middle half of ${paired.rounds} rounds' ratios: ${paired.cpuRatioQuartiles.map(times).join(' – ')}` +
            `${(paired.copies ?? 1) > 1 ? `; ${paired.copies} processes per server` : ''})`
          : ''),
      '',
      '',
      '',
      '',
    ]);
    const rps = paired?.throughputRatio ?? load.switchyard.reqPerS / load.bare.reqPerS;
    rows.push([
      `throughput (${label})`,
      `${load.switchyard.reqPerS.toFixed(0)} req/s`,
      `${load.bare.reqPerS.toFixed(0)} req/s`,
      times(rps),
      '≥ 0.85 ×',
      verdict(rps >= 0.85, `by ${times(0.85 - rps)}`),
    ]);
    rows.push([
      `latency p50 / p99 (${label})`,
      `${load.switchyard.p50Ms} / ${load.switchyard.p99Ms} ms`,
      `${load.bare.p50Ms} / ${load.bare.p99Ms} ms`,
      '',
      '',
      '',
    ]);
  }
  if (r.instructions) rows.push(...instructionRows(r.instructions));
  const ttfb = r.ttfbMs.switchyard! / r.ttfbMs.bare!;
  rows.push([
    'TTFB (median of 20)',
    ms(r.ttfbMs.switchyard!),
    ms(r.ttfbMs.bare!),
    times(ttfb),
    '≤ 1.2 ×',
    verdict(ttfb <= 1.2, `by ${times(ttfb - 1.2)}`),
  ]);
  const cold = r.coldStartMs.switchyard! / r.coldStartMs.bare!;
  rows.push([
    'cold start to first response',
    ms(r.coldStartMs.switchyard!),
    ms(r.coldStartMs.bare!),
    times(cold),
    '≤ 1.5 ×',
    verdict(cold <= 1.5, `by ${times(cold - 1.5)}`),
  ]);
  rows.push([
    'server RSS after load',
    `${r.rssMiB.switchyard.toFixed(0)} MiB`,
    `${r.rssMiB.bare.toFixed(0)} MiB`,
    times(r.rssMiB.switchyard / r.rssMiB.bare),
    '',
    '',
  ]);

  const { html, js, routerRuntime, pageData } = r.bytes;
  rows.push([
    'HTML raw / on the wire',
    `${kib(html.switchyard.raw)} / ${kib(html.switchyard.wire)} ${html.switchyard.encoding}`,
    `${kib(html.bare.raw)} / ${kib(html.bare.wire)} ${html.bare.encoding}`,
    '',
    'br or gzip',
    verdict(html.switchyard.encoding !== 'identity', 'not compressed'),
  ]);
  // The document's scripts, and the router code every page view loads once it has hydrated.
  const pageViewJs = js.switchyard.gzip + routerRuntime.afterPaint.gzip;
  const extraJs = pageViewJs - js.bare.gzip;
  rows.push([
    'all JS a page view loads (first load + router after paint), gzip',
    `${kib(pageViewJs)} (${js.switchyard.files} files + after paint)`,
    `${kib(js.bare.gzip)} (${js.bare.files})`,
    `+${kib(extraJs)}`,
    '≤ bare + 10 KiB',
    verdict(extraJs <= 10 * 1024, `by ${kib(extraJs - 10 * 1024)}`),
  ]);
  rows.push([
    'first-load JS on the wire',
    kib(js.switchyard.wire),
    kib(js.bare.wire),
    '',
    'compressed at build',
    verdict(js.switchyard.wire < js.switchyard.raw, 'sent raw'),
  ]);
  // What first paint runs and what every page view loads once it has hydrated: both are paid.
  const runtime = routerRuntime.gzip + routerRuntime.afterPaint.gzip;
  rows.push([
    'router runtime, all of it (first paint + after), gzip',
    `${kib(runtime)} (${kib(routerRuntime.gzip)} + ${kib(routerRuntime.afterPaint.gzip)})`,
    '',
    '',
    '≤ 10 KiB',
    verdict(runtime <= 10 * 1024, `by ${kib(runtime - 10 * 1024)}`),
  ]);
  const data = pageData.answer.gzip / pageData.loaderGzip;
  rows.push([
    'page data vs raw loader JSON (gzip)',
    kib(pageData.answer.gzip),
    kib(pageData.loaderGzip),
    times(data),
    '≤ 1.1 ×',
    verdict(data <= 1.1, `by ${times(data - 1.1)}`),
  ]);
  const rich = r.bytes.richPageData;
  if (rich) {
    rows.push([
      'page data, a Date per item, gzip (the dates as ISO strings)',
      `${kib(rich.encodedGzip)} (${kib(rich.plainGzip)})`,
      '',
      times(rich.encodedGzip / rich.plainGzip),
      '',
      '',
    ]);
  }
  rows.push([
    'page data on the wire',
    `${kib(pageData.answer.wire)} ${pageData.answer.encoding}`,
    '',
    '',
    'br or gzip',
    verdict(pageData.answer.encoding !== 'identity', 'not compressed'),
  ]);

  if (r.sentry) rows.push(...sentryRows(r.sentry));

  for (const [profile, figures] of Object.entries(r.browser)) {
    const { switchyard: s, bare: b } = figures;
    rows.push([
      `${profile}: requests per page view (self-started, on the wire with headers)`,
      `${s.pageView.requests} (${s.pageView.selfStarted} = ${s.pageView.selfStartedKib.toFixed(1)} KiB)`,
      `${b.pageView.requests} (${b.pageView.selfStarted} = ${b.pageView.selfStartedKib.toFixed(1)} KiB)`,
      '',
      '≤ 48 KiB prefetched',
      verdict(s.pageView.selfStartedKib <= 48, `by ${(s.pageView.selfStartedKib - 48).toFixed(1)} KiB`),
    ]);
    rows.push([
      `${profile}: click on a prefetched link`,
      `${ms(s.prefetchedClick.ms)}, ${s.prefetchedClick.requests} req`,
      `${ms(b.prefetchedClick.ms)}, ${b.prefetchedClick.requests} req`,
      times(s.prefetchedClick.ms / b.prefetchedClick.ms),
      '≤ 60 ms, 0 req',
      verdict(
        s.prefetchedClick.ms <= 60 && s.prefetchedClick.requests === 0,
        `${ms(s.prefetchedClick.ms)}, ${s.prefetchedClick.requests} req`,
      ),
    ]);
    const cold = s.coldClick.ms / b.coldClick.ms;
    rows.push([
      `${profile}: click on a link not prefetched`,
      `${ms(s.coldClick.ms)}, ${s.coldClick.requests} req`,
      `${ms(b.coldClick.ms)}, ${b.coldClick.requests} req`,
      times(cold),
      '≤ 1.0 × bare',
      verdict(cold <= 1, `by ${times(cold - 1)}`),
    ]);
    rows.push([
      `${profile}: back`,
      `${ms(s.back.ms)}, ${s.back.requests} req`,
      `${ms(b.back.ms)}, ${b.back.requests} req`,
      '',
      '0 req',
      verdict(s.back.requests === 0, `${s.back.requests} req`),
    ]);
  }

  if (r.click) rows.push(...clickRows(r.click));

  const f = r.feed;
  rows.push([
    'demo feed (compressed): CPU per request, throughput',
    `${ms(f.load.cpuMsPerRequest)}, ${f.load.reqPerS.toFixed(0)} req/s`,
    '',
    '',
    '',
    '',
  ]);
  rows.push([
    'demo feed: TTFB, p50 / p99, HTML wire, RSS',
    `${ms(f.ttfbMs)}, ${f.load.p50Ms} / ${f.load.p99Ms} ms, ${kib(f.html.wire)} ${f.html.encoding}, ${f.rssMiB.toFixed(0)} MiB`,
    '',
    '',
    '',
    '',
  ]);
  const a = r.adoption;
  if (a) {
    const unwanted = [...a.withInstallScripts.map((n) => `${n} (install script)`), ...a.demoOnly];
    rows.push([
      'packages installing the tarball (and React) brings',
      `${a.packages}`,
      '',
      '',
      'none built from source, none of the demo’s',
      verdict(unwanted.length === 0, unwanted.join(', ')),
    ]);
    rows.push([
      'init → first hydrated page in dev (of which npm install, from cache)',
      `${(a.initToHydratedMs / 1000).toFixed(1)} s (${(a.installMs / 1000).toFixed(1)} s)`,
      '',
      '',
      '',
      '',
    ]);
  }
  for (const t of [r.typecheck ?? []].flat()) {
    // The bare column holds the same app checked without its route types: every URL a string.
    const app = `tsc, ${t.routes.toLocaleString('en').replace(',', ' ')} routes, with route types vs without (TypeScript ${t.typescript})`;
    const check = t.typed.checkMs / t.untyped.checkMs;
    const cpu = t.typed.cpuMs / t.untyped.cpuMs;
    const worse = Math.max(check, cpu);
    rows.push([
      `${app}: check time (CPU of the run)`,
      `${seconds(t.typed.checkMs)} (${seconds(t.typed.cpuMs)})`,
      `${seconds(t.untyped.checkMs)} (${seconds(t.untyped.cpuMs)})`,
      `${times(check)} (${times(cpu)})`,
      '≤ 1.5 × both',
      verdict(worse <= 1.5, `by ${times(worse - 1.5)}`),
    ]);
    const memory = t.typed.memoryMiB / t.untyped.memoryMiB;
    rows.push([
      `${app}: memory used`,
      `${t.typed.memoryMiB.toFixed(0)} MiB`,
      `${t.untyped.memoryMiB.toFixed(0)} MiB`,
      times(memory),
      '≤ 1.5 ×',
      verdict(memory <= 1.5, `by ${times(memory - 1.5)}`),
    ]);
  }
  const m = r.micro;
  rows.push(['cache status computation', `${(m.statusUs * 1000).toFixed(1)} ns`, '', '', '', '']);
  rows.push(['prune 10 000 cache entries', `${(m.prune10kUs / 1000).toFixed(2)} ms`, '', '', '', '']);
  rows.push(['match among 1 000 routes', `${m.match1000RoutesUs.toFixed(1)} µs`, '', '', '', '']);
  if (r.curves) rows.push(...curveRows(r.curves));
  return rows;
}

/**
 * Instructions per request counted by callgrind: the CPU rows' question asked of a figure that
 * does not move with the machine's load, held to the same target. Instructions, not time.
 */
export function instructionRows(f: InstructionFigures): Row[] {
  const millions = (n: number) => `${(n / 1e6).toFixed(2)} M`;
  const { processes, measuredRequests, warmUpRequests, laterWarmUpRequests, windows = 1 } = f.settings;
  const page = (label: string, counts: InstructionCounts, warmUp: number): Row[] => {
    const pair = pairInstructions(counts);
    const spread =
      processes > 1 ? `${processes} processes per server, at most ${percent(pair.spread)} apart; ` : '';
    const counted =
      windows > 1
        ? `${windows} windows of ${measuredRequests} requests after ${warmUp}, ` +
          `a process's at most ${percent(pair.windowSpread)} apart`
        : `${measuredRequests} requests counted after ${warmUp}`;
    const compiling = pair.compiling
      ? `; without the optimizing compiler, which added ${millions(pair.compiling.switchyard)} and ` +
        `${millions(pair.compiling.bare)}`
      : '';
    return [
      [
        `instructions per request, callgrind (${label})`,
        millions(pair.switchyard),
        millions(pair.bare),
        times(pair.ratio),
        '≤ 1.18 × (the CPU target)',
        verdict(pair.ratio <= 1.18, `by ${times(pair.ratio - 1.18)}`),
      ],
      [
        `framework overhead in instructions per request (${label})`,
        `${millions(pair.overhead)} (${spread}${counted}${compiling})`,
        '',
        '',
        '',
        '',
      ],
    ];
  };
  return [
    ...page('no compression', f.plain, warmUpRequests),
    ...page('cheap page, no compression', f.cheap, laterWarmUpRequests ?? warmUpRequests),
  ];
}

/** The growth curves held to their targets: costs that stay flat as the app or the page grows. */
function curveRows({ routes, items, navigations }: Curves): Row[] {
  const rows: Row[] = [];
  const largest = routes.at(-1);
  if (largest) {
    const us = largest.matchUs;
    rows.push([
      `match among ${largest.routes.toLocaleString('en').replace(',', ' ')} routes`,
      `${us.toFixed(1)} µs`,
      '',
      '',
      '< 10 µs',
      verdict(us < 10, `by ${(us - 10).toFixed(1)} µs`),
    ]);
  }
  const [small, large] = [items[0], items.at(-1)];
  if (small && large && small !== large) {
    // Flat: the framework's share is per request, so a page 100 times larger keeps its ratio.
    const drift = large.ratio / small.ratio;
    rows.push([
      `CPU ratio at ${large.items.toLocaleString('en').replace(',', ' ')} items vs at ${small.items}`,
      `${times(large.ratio)} vs ${times(small.ratio)}`,
      '',
      times(drift),
      '≤ 1.1 ×',
      verdict(drift <= 1.1, `by ${times(drift - 1.1)}`),
    ]);
  }
  const [few, many] = [navigations?.[0], navigations?.at(-1)];
  if (few && many && few !== many) {
    const grew = many.heapMiB - few.heapMiB;
    rows.push([
      `JS heap after ${many.navigations} soft navigations vs ${few.navigations} (DOM nodes)`,
      `${grew >= 0 ? '+' : ''}${grew.toFixed(1)} MiB (${many.domNodes} vs ${few.domNodes})`,
      '',
      '',
      '≤ +5 MiB',
      verdict(grew <= 5, `by ${(grew - 5).toFixed(1)} MiB`),
    ]);
  }
  return rows;
}

/** One frame at 60 Hz: the click's feedback should be painted in the frame after it. */
const FRAME_MS = 1000 / 60;

/**
 * What a click on a link not prefetched costs in the browser (loopback): what it re-renders when
 * pending turns on, and the main thread's CPU until pending is painted and until the new page
 * is, beside the bare server's page load (its document's commit to its first paint).
 */
export function clickRows(c: ClickFigures): Row[] {
  const { ok, others } = clickRendersVerdict(c.rendered, c.clickedHref);
  const commits = `${c.commits} commit${c.commits === 1 ? '' : 's'}`;
  const newPage = c.toNewPageMs / c.barePageLoadMs;
  return [
    [
      'click: components rendered when pending turns on',
      `${c.rendered.length} in ${commits}: ${c.rendered.map(formatRendered).join(', ')}`,
      '',
      '',
      'the progress bar and the clicked link',
      verdict(ok, others.length ? `also ${others.map(formatRendered).join(', ')}` : 'none rendered'),
    ],
    [
      'click: main-thread CPU to the next paint (bare: page load to first paint)',
      ms(c.toNextPaintMs),
      ms(c.barePageLoadMs),
      times(c.toNextPaintMs / c.barePageLoadMs),
      '≤ one frame (16.7 ms)',
      verdict(c.toNextPaintMs <= FRAME_MS, `by ${ms(c.toNextPaintMs - FRAME_MS)}`),
    ],
    [
      'click: main-thread CPU until the new page is painted (bare: page load)',
      ms(c.toNewPageMs),
      ms(c.barePageLoadMs),
      times(newPage),
      '≤ 1.0 × bare',
      verdict(newPage <= 1, `by ${times(newPage - 1)}`),
    ],
  ];
}

/**
 * Sentry's rows: the bare column holds the server without Sentry. Tracing must not change the
 * first-load JavaScript, and off, must not cost CPU beyond the error SDK's.
 */
export function sentryRows(f: SentryFigures): Row[] {
  const { noSentry, tracingOff, tracingOn } = f.firstLoadJs;
  const same = noSentry.gzip === tracingOff.gzip && tracingOff.gzip === tracingOn.gzip;
  const cpu = f.cpu.paired?.cpuRatio ?? f.cpu.tracingOff.cpuMsPerRequest / f.cpu.noSentry.cpuMsPerRequest;
  return [
    [
      'first-load JS gzip: Sentry with tracing off / on (without Sentry)',
      `${kib(tracingOff.gzip)} / ${kib(tracingOn.gzip)}`,
      kib(noSentry.gzip),
      `+${kib(tracingOn.gzip - noSentry.gzip)}`,
      'the same bytes',
      verdict(same, `${kib(tracingOn.gzip - noSentry.gzip)} more`),
    ],
    [
      'Sentry SDK / its tracing, loaded after hydration, gzip',
      `${kib(f.afterHydration.sdk.gzip)} / ${kib(f.afterHydration.tracing.gzip)}`,
      '',
      '',
      '',
      '',
    ],
    [
      'server CPU per request, Sentry with tracing off (without Sentry)',
      ms(f.cpu.tracingOff.cpuMsPerRequest),
      ms(f.cpu.noSentry.cpuMsPerRequest),
      times(cpu),
      '≤ 1.05 ×',
      verdict(cpu <= 1.05, `by ${times(cpu - 1.05)}`),
    ],
  ];
}

export function printReport(r: SavedRun): void {
  const rows: Row[] = [['', 'Switchyard', 'bare', 'ratio', 'target', 'met'], ...tableRows(r)];
  console.log('\n' + markdownTable(rows));
  const { cpus, loadAverage } = r.machine;
  // Others' work on the machine moves every figure: the ratios of one run are what to compare.
  console.log(
    `\n${cpus} CPUs, 1-minute load average ${loadAverage.atStart.toFixed(1)} at the start, ${loadAverage.atEnd.toFixed(1)} at the end.`,
  );
  if ('only' in r) return;
  // A run from before the gzip share was measured shows its bytes alone.
  const line = ({ module, bytes, gzip }: CodeSize['modules'][number]) =>
    `  ${String(bytes).padStart(6)}  ${gzip === undefined ? '' : String(gzip).padStart(5)}  ${module}`;
  console.log(
    '\nRouter runtime, costliest modules (bytes of their code in the chunk, before minifying; their share of its gzip):',
  );
  r.bytes.routerRuntime.modules.slice(0, 8).forEach((m) => console.log(line(m)));
  console.log('Loaded after first paint, costliest modules:');
  r.bytes.routerRuntime.afterPaint.modules.slice(0, 8).forEach((m) => console.log(line(m)));
}

/** A Markdown table, so the output pastes into the docs as it is. */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  const lines = rows.map((row) => `| ${row.join(' | ')} |`);
  lines.splice(1, 0, `|${rows[0]!.map(() => '---').join('|')}|`);
  return lines.join('\n');
}
