/**
 * The bench's growth curves: the rows that hold them to their targets, and the charts drawn for
 * docs/performance.md.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { lineChart, niceCeiling } from '../../scripts/bench/chart';
import { curveCharts, type Curves } from '../../scripts/bench/curve-report';
import { tableRows, type BenchResults } from '../../scripts/bench/report';

const run = JSON.parse(
  readFileSync(new URL('../fixtures/bench/run.json', import.meta.url), 'utf8'),
) as BenchResults;

const curves = (heapAt1000: number, ratioAt20k: number): Curves => ({
  routes: [10, 5000].map((routes) => ({
    routes,
    matchUs: routes / 1000,
    buildS: 1,
    startMs: 300,
    rssMiB: 70,
  })),
  items: [
    { items: 200, switchyardMs: 1.2, bareMs: 1, ratio: 1.2 },
    { items: 20_000, switchyardMs: 100 * ratioAt20k, bareMs: 100, ratio: ratioAt20k },
  ],
  navigations: [
    { navigations: 100, heapMiB: 5, domNodes: 1500 },
    { navigations: 1000, heapMiB: heapAt1000, domNodes: 1500 },
  ],
});

const verdicts = (r: BenchResults) =>
  Object.fromEntries(
    tableRows(r)
      .filter(([figure]) => /^(match among 5 000|CPU ratio at|JS heap after)/.test(figure))
      .map(([figure, , , , , met]) => [figure.split(' ').slice(0, 3).join(' '), met]),
  );

test('flat curves meet their targets; a heap that grows or a ratio that climbs does not', () => {
  expect(verdicts({ ...run, curves: curves(6, 1.25) })).toEqual({
    'match among 5': '✓',
    'CPU ratio at': '✓',
    'JS heap after': '✓',
  });
  expect(verdicts({ ...run, curves: curves(12, 1.5) })).toEqual({
    'match among 5': '✓',
    'CPU ratio at': '✗ by 0.15 ×',
    'JS heap after': '✗ by 2.0 MiB',
  });
});

test('a chart is accessible SVG whose description carries every figure', () => {
  const svg = lineChart({
    id: 'c',
    title: 'Memory <by> routes',
    xLabel: 'routes',
    yLabel: 'MiB',
    series: [
      {
        name: 'RSS',
        points: [
          [10, 69],
          [5000, 120],
        ],
      },
    ],
  });
  expect(svg).toMatch(/^<svg role="img" aria-labelledby="c-title c-desc"/);
  expect(svg).toContain('<title id="c-title">Memory &lt;by&gt; routes</title>');
  expect(svg).toContain('RSS: 10 → 69.0, 5,000 → 120');
  expect(niceCeiling(120)).toBe(200);
  expect(niceCeiling(0.7)).toBe(1);
  expect(curveCharts(curves(6, 1.2)).match(/<svg /g)).toHaveLength(5);
});
