/**
 * The growth curves as Markdown tables and SVG charts, ready for docs/performance.md, and the
 * rows of the main table that hold them to their targets.
 */
import { lineChart } from './chart';
import type { ItemPoint, NavigationPoint, RoutePoint } from './curves';
import { markdownTable } from './report';

export interface Curves {
  routes: RoutePoint[];
  items: ItemPoint[];
  /** Missing when the run had no browser. */
  navigations?: NavigationPoint[];
}

const n = (value: number) => value.toLocaleString('en');

export function curveTables({ routes, items, navigations }: Curves): string {
  const tables = [
    markdownTable([
      ['routes', 'match one URL', 'build', 'start to first response', 'server RSS'],
      ...routes.map((p) => [
        n(p.routes),
        `${p.matchUs.toFixed(2)} µs`,
        `${p.buildS.toFixed(1)} s`,
        `${p.startMs.toFixed(0)} ms`,
        `${p.rssMiB.toFixed(0)} MiB`,
      ]),
    ]),
    markdownTable([
      ['items on the page', 'Switchyard CPU per request', 'bare', 'ratio'],
      ...items.map((p) => [
        n(p.items),
        `${p.switchyardMs.toFixed(2)} ms`,
        `${p.bareMs.toFixed(2)} ms`,
        `${p.ratio.toFixed(2)} ×`,
      ]),
    ]),
  ];
  if (navigations)
    tables.push(
      markdownTable([
        ['soft navigations', 'JS heap after GC', 'DOM nodes'],
        ...navigations.map((p) => [n(p.navigations), `${p.heapMiB.toFixed(1)} MiB`, n(p.domNodes)]),
      ]),
    );
  return tables.join('\n\n');
}

export function curveCharts({ routes, items, navigations }: Curves): string {
  const byRoutes = (pick: (p: RoutePoint) => number) =>
    routes.map((p) => [p.routes, pick(p)] as [number, number]);
  const charts = [
    lineChart({
      id: 'curve-match',
      title: 'Matching a URL by route count',
      xLabel: 'routes',
      yLabel: 'µs per match',
      series: [{ name: 'match', points: byRoutes((p) => p.matchUs) }],
      format: (y) => y.toFixed(2),
    }),
    lineChart({
      id: 'curve-build-start',
      title: 'Build and start by route count',
      xLabel: 'routes',
      yLabel: 'seconds',
      series: [
        { name: 'build', points: byRoutes((p) => p.buildS) },
        { name: 'start', points: byRoutes((p) => p.startMs / 1000) },
      ],
      format: (y) => y.toFixed(1),
    }),
    lineChart({
      id: 'curve-rss',
      title: 'Server memory by route count',
      xLabel: 'routes',
      yLabel: 'MiB resident',
      series: [{ name: 'RSS', points: byRoutes((p) => p.rssMiB) }],
      format: (y) => y.toFixed(0),
    }),
    lineChart({
      id: 'curve-items',
      title: 'CPU per request beside the bare server, by page size',
      xLabel: 'items on the page',
      yLabel: 'Switchyard ÷ bare',
      series: [{ name: 'ratio', points: items.map((p) => [p.items, p.ratio]) }],
      format: (y) => y.toFixed(2),
    }),
  ];
  if (navigations)
    charts.push(
      lineChart({
        id: 'curve-heap',
        title: 'Browser JS heap by soft navigations',
        xLabel: 'soft navigations',
        yLabel: 'MiB after GC',
        series: [{ name: 'JS heap', points: navigations.map((p) => [p.navigations, p.heapMiB]) }],
        format: (y) => y.toFixed(1),
      }),
    );
  return charts.join('\n\n');
}
