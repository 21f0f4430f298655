/**
 * A line chart as inline SVG, for the growth curves in docs/performance.md: x on a log scale (the
 * sizes go up by tens), y from zero, one line per series, the values written at each point.
 * Plain SVG with a title and a description, so a screen reader has the figures too.
 */

export interface Series {
  name: string;
  points: [x: number, y: number][];
}

export interface Chart {
  /** Unique on the page: the ids of the title and description derive from it. */
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** How a y value is written at its point. */
  format?: (y: number) => string;
}

const WIDTH = 640;
const HEIGHT = 300;
const MARGIN = { top: 40, right: 150, bottom: 50, left: 70 };
const COLOURS = ['#2563eb', '#b45309', '#15803d', '#9333ea'];

const escape = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

export function lineChart({
  id,
  title,
  xLabel,
  yLabel,
  series,
  format = (y) => y.toPrecision(3),
}: Chart): string {
  const xs = [...new Set(series.flatMap((s) => s.points.map(([x]) => x)))].sort((a, b) => a - b);
  const yMax = niceCeiling(Math.max(...series.flatMap((s) => s.points.map(([, y]) => y))));
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const [lo, hi] = [Math.log10(xs[0]!), Math.log10(xs.at(-1)!)];
  const xAt = (x: number) =>
    MARGIN.left + (hi === lo ? plotW / 2 : ((Math.log10(x) - lo) / (hi - lo)) * plotW);
  const yAt = (y: number) => MARGIN.top + plotH - (y / yMax) * plotH;
  const f = (n: number) => n.toFixed(1);

  const parts: string[] = [];
  for (let i = 0; i <= 4; i++) {
    const y = (yMax * i) / 4;
    parts.push(
      `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${f(yAt(y))}" y2="${f(yAt(y))}" stroke="#e5e7eb"/>`,
      `<text x="${MARGIN.left - 8}" y="${f(yAt(y) + 4)}" text-anchor="end">${escape(format(y))}</text>`,
    );
  }
  for (const x of xs)
    parts.push(
      `<text x="${f(xAt(x))}" y="${MARGIN.top + plotH + 18}" text-anchor="middle">${x.toLocaleString('en')}</text>`,
    );
  series.forEach((s, i) => {
    const colour = COLOURS[i % COLOURS.length]!;
    const path = s.points.map(([x, y], n) => `${n ? 'L' : 'M'}${f(xAt(x))} ${f(yAt(y))}`).join(' ');
    parts.push(`<path d="${path}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    for (const [x, y] of s.points)
      parts.push(
        `<circle cx="${f(xAt(x))}" cy="${f(yAt(y))}" r="3" fill="${colour}"/>`,
        `<text x="${f(xAt(x))}" y="${f(yAt(y) - 8)}" text-anchor="middle" fill="${colour}">${escape(format(y))}</text>`,
      );
    parts.push(
      `<text x="${MARGIN.left + plotW + 12}" y="${MARGIN.top + 14 + i * 18}" fill="${colour}">${escape(s.name)}</text>`,
    );
  });
  const description = series
    .map(
      (s) => `${s.name}: ${s.points.map(([x, y]) => `${x.toLocaleString('en')} → ${format(y)}`).join(', ')}`,
    )
    .join('; ');
  return [
    `<svg role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}" xmlns="http://www.w3.org/2000/svg" font-family="system-ui, sans-serif" font-size="12">`,
    `<title id="${id}-title">${escape(title)}</title>`,
    `<desc id="${id}-desc">${escape(`${yLabel} by ${xLabel}. ${description}.`)}</desc>`,
    `<text x="${MARGIN.left}" y="20" font-size="14" font-weight="600">${escape(title)}</text>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${MARGIN.top + plotH}" stroke="#6b7280"/>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH}" stroke="#6b7280"/>`,
    ...parts,
    `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 10}" text-anchor="middle">${escape(xLabel)} (log scale)</text>`,
    `<text transform="translate(16 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">${escape(yLabel)}</text>`,
    '</svg>',
  ].join('\n');
}

/** 1, 2 or 5 times a power of ten, at least `value`: round numbers on the y axis. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((n) => n >= value)!;
}
