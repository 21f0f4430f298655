/**
 * `npm run bench -- --compare <old.json>`: after the run, each row's figure next to the same row
 * of an earlier run, and how its ratio to the bare server moved. Ratios are what two runs can be
 * compared by: both servers of one run share its machine's load, which moves every absolute
 * figure. `--compare <old.json> <new.json>` compares two saved runs without running the bench.
 */
import { markdownTable, tableRows, type SavedRun } from './report';

/** `1.18 ×` → 1.18; a row without a ratio gives `undefined`. */
function ratioOf(text: string): number | undefined {
  const match = /^(-?\d+(?:\.\d+)?) ×$/.exec(text.trim());
  return match ? Number(match[1]) : undefined;
}

export interface RowChange {
  figure: string;
  before: string;
  after: string;
  /** New ratio over old, minus one: `-0.05` is 5 % closer to the bare server. */
  change: number | undefined;
}

/**
 * Rows present in both runs, by their figure's name, in the new run's order. A row only one run
 * has (a figure added or renamed since) is left out: there is nothing to compare it with.
 */
export function compareRuns(before: SavedRun, after: SavedRun): RowChange[] {
  const old = new Map(tableRows(before).map((row) => [row[0], row]));
  const changes: RowChange[] = [];
  for (const row of tableRows(after)) {
    const earlier = old.get(row[0]);
    if (!earlier) continue;
    const [was, is] = [ratioOf(earlier[3]), ratioOf(row[3])];
    changes.push({
      figure: row[0],
      before: earlier[3] || earlier[1],
      after: row[3] || row[1],
      change: was !== undefined && is !== undefined && was !== 0 ? is / was - 1 : undefined,
    });
  }
  return changes;
}

/** The changes as a Markdown table, with each run's commit and load average above it. */
export function compareReport(before: SavedRun, after: SavedRun): string {
  const runOf = (r: SavedRun) =>
    `${r.commit ?? 'unknown commit'}, load ${r.machine.loadAverage.atStart.toFixed(1)}→${r.machine.loadAverage.atEnd.toFixed(1)}`;
  const rows = compareRuns(before, after).map(({ figure, before, after, change }) => [
    figure,
    before,
    after,
    change === undefined ? '' : `${change > 0 ? '+' : ''}${(change * 100).toFixed(1)} %`,
  ]);
  const table = markdownTable([['', 'before', 'after', 'ratio change'], ...rows]);
  return `Before: ${runOf(before)}\nAfter: ${runOf(after)}\n\n${table}`;
}
