/**
 * The bench's instruction rows: the total a callgrind dump counted, read from its text, the two
 * servers' counts set side by side (medians of their processes, ratio, overhead, spread), and a
 * run of `--only instructions` printed and compared like any other.
 */
import { expect, test } from 'vitest';
import { compareRuns } from '../../scripts/bench/compare';
import { callgrindTotal, pairInstructions, type InstructionFigures } from '../../scripts/bench/instructions';
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
