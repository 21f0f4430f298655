/**
 * The bench's instruction rows: the total a callgrind dump counted and its optimizing compiler's
 * share, read from their text, each process's windows made one figure, the two servers' counts
 * set side by side (medians of their processes, ratio, overhead, spreads), and a run of
 * `--only instructions` printed and compared like any other.
 */
import { expect, test } from 'vitest';
import { compareRuns } from '../../scripts/bench/compare';
import {
  callgrindTotal,
  compilingTotal,
  pairInstructions,
  processFigure,
  type InstructionFigures,
} from '../../scripts/bench/instructions';
import { tableRows, type InstructionsRun } from '../../scripts/bench/report';

const dump = (events: string, totals: string) =>
  [
    '# callgrind format',
    'version: 1',
    'cmd:  node server.js',
    'part: 1',
    `events: ${events}`,
    'fl=(1) ???',
    'fn=(1) main',
    '0 5',
    `summary: ${totals}`,
    '',
    `totals: ${totals}`,
    '',
  ].join('\n');

test("a dump's total is its Ir column, from the totals line", () => {
  expect(callgrindTotal(dump('Ir', '514879607'))).toBe(514_879_607);
  // With more events counted, Ir is read from its own column.
  expect(callgrindTotal(dump('Dr Ir Dw', '7 1234 9'))).toBe(1234);
  expect(callgrindTotal(dump('Ir', '12').replace(/^totals:.*$/m, ''))).toBe(12);
});

test('a file that is not a dump counting instructions is an error, not a zero', () => {
  expect(() => callgrindTotal('')).toThrow(/not a callgrind dump counting instructions/);
  expect(() => callgrindTotal(dump('Dr Dw', '1 2'))).toThrow(/Ir/);
  expect(() => callgrindTotal(dump('Ir', ''))).toThrow(/totals/);
});

test("the optimizing compiler's share is the inclusive cost of its entry points, 0 when it did not run", () => {
  const listing = [
    '--------------------------------------------------------------------------------',
    '277,464,274 (100.0%)  PROGRAM TOTALS',
    "468,127,836 (212.7%)  ???:Builtins_CompileLazy'2 [/usr/bin/node]",
    ' 40,310,920 (18.31%)  ???:v8::internal::Runtime_CompileOptimized(int, unsigned long*, v8::internal::Isolate*) [/usr/bin/node]',
    ' 40,310,330 (18.31%)  ???:v8::internal::Compiler::CompileOptimized(v8::internal::Isolate*) [/usr/bin/node]',
    '  1,000,000 ( 0.36%)  ???:v8::internal::Runtime_CompileOptimizedOSR(int, unsigned long*, v8::internal::Isolate*) [/usr/bin/node]',
    '    500,000 ( 0.18%)  ???:v8::internal::Runtime_CompileOptimizedOSRFromMaglev(int) [/usr/bin/node]',
  ].join('\n');
  // The runtime functions only: the compiler's own functions are inside them.
  expect(compilingTotal(listing)).toBe(41_310_920);
  expect(compilingTotal('277,464,274 (100.0%)  PROGRAM TOTALS')).toBe(0);
});

test("a process's figure is the median of its windows, each without the optimizing compiler", () => {
  // The third window had a compilation in it: without it, it agrees with the others.
  const windows = [
    { total: 11.8e6, compiling: 0 },
    { total: 11.82e6, compiling: 0 },
    { total: 13.8e6, compiling: 2e6 },
  ];
  expect(processFigure(windows)).toBe(11.8e6);
  const pair = pairInstructions({
    switchyard: [processFigure(windows)],
    bare: [9e6],
    windows: { switchyard: [windows], bare: [[{ total: 9e6, compiling: 0 }]] },
  });
  expect(pair.windowSpread).toBeCloseTo(0.02 / 11.8);
  expect(pair.compiling).toEqual({ switchyard: 0, bare: 0 });
});

test("each side's processes give their median; the ratio and overhead are of the medians", () => {
  const pair = pairInstructions({ switchyard: [12.1e6, 12.0e6, 12.2e6], bare: [10e6, 10e6] });
  expect(pair.switchyard).toBe(12.1e6);
  expect(pair.bare).toBe(10e6);
  expect(pair.ratio).toBeCloseTo(1.21);
  expect(pair.overhead).toBeCloseTo(2.1e6);
  // The wider side: Switchyard's processes are 0.2e6 apart around 12.1e6.
  expect(pair.spread).toBeCloseTo(0.2 / 12.1);
});

test('one process per side has no spread to report', () => {
  expect(pairInstructions({ switchyard: [12e6], bare: [10e6] }).spread).toBe(0);
});

const counted = (switchyard: number[], bare: number[]): InstructionFigures => ({
  plain: { page: '/items/1', switchyard, bare },
  cheap: { page: '/cheap/1', switchyard: [1.5e6, 1.5e6], bare: [1e6, 1e6] },
  settings: { warmUpRequests: 200, measuredRequests: 30, processes: 2, nodeOptions: [] },
});
const onlyInstructions = (figures: InstructionFigures): InstructionsRun => ({
  commit: 'abc1234',
  machine: { node: 'v20', cpus: 2, loadAverage: { atStart: 1, atEnd: 1 } },
  only: 'instructions',
  instructions: figures,
});

test('a run counted in windows says how many, how far apart, and what the compiler added', () => {
  const window = (total: number, compiling = 0) => ({ total, compiling });
  const figures = counted([12e6, 12e6], [10e6, 10e6]);
  figures.plain.windows = {
    switchyard: [
      [window(12e6), window(12.012e6), window(14e6, 2e6)],
      [window(12e6), window(12e6), window(12e6)],
    ],
    bare: [
      [window(10e6), window(10e6), window(10e6)],
      [window(10e6), window(10.5e6, 0.5e6), window(10e6)],
    ],
  };
  figures.settings = { ...figures.settings, warmUpRequests: 800, laterWarmUpRequests: 400, windows: 3 };
  const rows = tableRows(onlyInstructions(figures));
  expect(rows[1]![1]).toBe(
    '2.00 M (2 processes per server, at most 0.00 % apart; 3 windows of 30 requests after 800, ' +
      "a process's at most 0.10 % apart; without the optimizing compiler, which added 0.00 M and 0.00 M)",
  );
  // The cheap page has no windows in this run: its warm-up is the later one.
  expect(rows[3]![1]).toBe(
    "0.50 M (2 processes per server, at most 0.00 % apart; 3 windows of 30 requests after 400, a process's at most 0.00 % apart)",
  );
});

test('a run of the instructions alone has their rows: ratio beside the CPU target, overhead and spread', () => {
  const rows = tableRows(onlyInstructions(counted([12e6, 12.012e6], [10e6, 10e6])));
  expect(rows.map((row) => row[0])).toEqual([
    'instructions per request, callgrind (no compression)',
    'framework overhead in instructions per request (no compression)',
    'instructions per request, callgrind (cheap page, no compression)',
    'framework overhead in instructions per request (cheap page, no compression)',
  ]);
  expect(rows[0]).toEqual([
    rows[0]![0],
    '12.01 M',
    '10.00 M',
    '1.20 ×',
    '≤ 1.18 × (the CPU target)',
    '✗ by 0.02 ×',
  ]);
  expect(rows[1]![1]).toBe(
    '2.01 M (2 processes per server, at most 0.10 % apart; 30 requests counted after 200)',
  );
  expect(rows[2]![5]).toBe('✗ by 0.32 ×');
});

test('--compare sets two runs of the instructions alone row by row', () => {
  const before = onlyInstructions(counted([12e6, 12e6], [10e6, 10e6]));
  const after = onlyInstructions(counted([11e6, 11e6], [10e6, 10e6]));
  const ratio = compareRuns(before, after).find((row) => row.figure.startsWith('instructions per request'))!;
  expect([ratio.before, ratio.after]).toEqual(['1.20 ×', '1.10 ×']);
  expect(ratio.change).toBeCloseTo(1.1 / 1.2 - 1, 3);
});
