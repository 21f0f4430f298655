/**
 * `npm run bench -- --compare`: each row of a run beside the same row of an earlier one, and how
 * its ratio to the bare server moved. The fixture is a real run's JSON.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { compareReport, compareRuns } from '../../scripts/bench/compare';
import type { BenchResults } from '../../scripts/bench/report';

const run = JSON.parse(
  readFileSync(new URL('../fixtures/bench/run.json', import.meta.url), 'utf8'),
) as BenchResults;

test('a ratio that moved is given as its relative change; rows without a ratio carry their figures', () => {
  const before = structuredClone(run);
  const after = structuredClone(run);
  after.load.plain.switchyard.cpuMsPerRequest = after.load.plain.bare.cpuMsPerRequest * 1.1;
  before.load.plain.switchyard.cpuMsPerRequest = before.load.plain.bare.cpuMsPerRequest * 1.25;
  const rows = new Map(compareRuns(before, after).map((row) => [row.figure, row]));
  const cpu = rows.get('server CPU per request (no compression)')!;
  expect([cpu.before, cpu.after]).toEqual(['1.25 ×', '1.10 ×']);
  expect(cpu.change).toBeCloseTo(1.1 / 1.25 - 1, 3);
  const overhead = rows.get('framework overhead per request (no compression)')!;
  expect(overhead.change).toBeUndefined();
  expect(overhead.after).toMatch(/^\d+ µs$/);
});

test('a row only one run has is left out, and each run says its commit and load', () => {
  const before = structuredClone(run);
  delete before.typecheck;
  const after = { ...structuredClone(run), commit: 'abc1234+' };
  const figures = compareRuns(before, after).map((row) => row.figure);
  expect(figures.some((figure) => figure.startsWith('tsc'))).toBe(false);
  expect(figures).toContain('TTFB (median of 20)');
  const report = compareReport(before, after);
  expect(report).toContain('Before: unknown commit, load 1.0→1.9');
  expect(report).toContain('After: abc1234+');
  expect(report).toMatch(/\| TTFB \(median of 20\) \| 1\.26 × \| 1\.26 × \| 0\.0 % \|/);
});
