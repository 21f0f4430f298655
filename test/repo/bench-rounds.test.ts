/**
 * The bench's CPU ratio is the median of each round's own ratio: the two runs of a round share
 * the machine's load, so a busy round moves both and the median leaves it out. Each side of a
 * round is several processes pooled: all their CPU over all their requests. Runs from before
 * rounds were paired still report, from their medians.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { pairRounds, poolCopies, refuseFailures, type LoadFigures } from '../../scripts/bench/load';
import { tableRows, type BenchResults } from '../../scripts/bench/report';

const run = (cpuMsPerRequest: number, reqPerS = 100, requests = 1000, p50Ms = 1): LoadFigures => ({
  requests,
  reqPerS,
  cpuMsPerRequest,
  p50Ms,
  p99Ms: 2,
});

test("a round's processes pool into one: their CPU over their requests, not a mean of their figures", () => {
  // A process that answered three times the requests weighs three times as much.
  const pooled = poolCopies([run(1.0, 300, 3000, 1), run(2.0, 100, 1000, 5), run(1.5, 200, 2000, 3)]);
  expect(pooled.requests).toBe(6000);
  expect(pooled.cpuMsPerRequest).toBeCloseTo((3000 + 2000 + 3000) / 6000);
  expect(pooled.reqPerS).toBeCloseTo(200);
  expect(pooled.p50Ms).toBe(3);
});

test("the CPU ratio is the median of the rounds' own ratios, not the ratio of two medians", () => {
  // The machine got busy from the third round on: both servers' figures doubled there, and the
  // bare server's median comes from busy rounds where Switchyard's comes from quiet ones.
  const switchyard = [run(1.2), run(1.2), run(2.4), run(2.4), run(1.2)];
  const bare = [run(1.0), run(1.0), run(2.0), run(2.0), run(2.0)];
  const paired = pairRounds(switchyard, bare);
  expect(paired.cpuRatio).toBeCloseTo(1.2);
  expect(paired.cpuOverheadUs).toBeCloseTo(200);
  expect(paired.rounds).toBe(5);
  expect(paired.cpuRatioQuartiles).toEqual([1.2, 1.2].map((r) => expect.closeTo(r)));
});

test('the table reads the rounds where the run kept them, the medians where it did not', () => {
  const old = JSON.parse(
    readFileSync(new URL('../fixtures/bench/run.json', import.meta.url), 'utf8'),
  ) as BenchResults;
  const cpuRow = (r: BenchResults) =>
    tableRows(r).find((row) => row[0] === 'server CPU per request (no compression)')!;
  expect(cpuRow(old)[3]).toBe('1.28 ×');
  const paired = pairRounds([run(1.15), run(1.2), run(1.1)], [run(1.0), run(1.0), run(1.0)]);
  const now = { ...old, load: { ...old.load, plain: { ...old.load.plain, paired } } };
  expect(cpuRow(now)[3]).toBe('1.15 ×');
  const overhead = tableRows(now).find(
    (row) => row[0] === 'framework overhead per request (no compression)',
  )!;
  expect(overhead[1]).toBe("150 µs (middle half of 3 rounds' ratios: 1.13 × – 1.17 ×)");
  const pooled = {
    ...now,
    load: { ...now.load, plain: { ...now.load.plain, paired: { ...paired, copies: 3 } } },
  };
  expect(tableRows(pooled).find((row) => row[0] === overhead[0])![1]).toBe(
    "150 µs (middle half of 3 rounds' ratios: 1.13 × – 1.17 ×; 3 processes per server)",
  );
});

test('a run with answers that are not 2xx stops the bench: its figures would measure errors', () => {
  expect(() => refuseFailures({ non2xx: 0, errors: 0 }, 'bare /items/1')).not.toThrow();
  expect(() => refuseFailures({ non2xx: 3, errors: 0 }, 'switchyard /items/1')).toThrow(
    'switchyard /items/1: 3 non-2xx answers, 0 errors',
  );
  expect(() => refuseFailures({ non2xx: 0, errors: 2 }, 'bare /cheap/1')).toThrow('2 errors');
});
