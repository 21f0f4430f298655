/**
 * The bench's click rows: which components a commit rendered (the walk over React's fibers that
 * runs in the page, on a fixed fake tree), main-thread time from a trace, and the rows' verdicts.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import type { ClickFigures } from '../../scripts/bench/click-cost';
import { clickRendersVerdict, renderedInCommit, type FiberLike } from '../../scripts/bench/click-renders';
import { mainThreadToPaint, type TraceEvent } from '../../scripts/bench/main-thread';
import { clickRows, tableRows, type BenchResults } from '../../scripts/bench/report';

const [FUNCTION, HOST_ROOT, HOST, MEMO, SIMPLE_MEMO] = [0, 3, 5, 14, 15];
const PERFORMED_WORK = 1;

/** A fiber; `children` are linked as React links them, `stateNode` is a fake element for hosts. */
function fiber(
  tag: number,
  options: { name?: string; flags?: number; attrs?: Record<string, string>; children?: FiberLike[] } = {},
): FiberLike {
  const { name, flags = 0, attrs, children = [] } = options;
  children.forEach((child, i) => (child.sibling = children[i + 1] ?? null));
  return {
    tag,
    flags,
    type: tag === HOST ? name : name && { name },
    stateNode:
      tag === HOST
        ? { tagName: name!.toUpperCase(), getAttribute: (a: string) => attrs?.[a] ?? null }
        : undefined,
    child: children[0] ?? null,
    sibling: null,
    alternate: null,
  };
}
/** Marks `f` as a fiber this render visited: its previous version had other child fibers. */
const visited = (f: FiberLike) => ((f.alternate = fiber(FUNCTION, { children: [fiber(FUNCTION)] })), f);

test('counts the components this render ran, never a skipped subtree’s stale flags or a bail-out', () => {
  const link = (href: string, flags: number) =>
    visited(
      fiber(FUNCTION, { name: 'Link', flags, children: [fiber(HOST, { name: 'a', attrs: { href } })] }),
    );
  // A subtree React skipped keeps the previous commit's fibers: the same child as its alternate.
  const skipped = fiber(FUNCTION, { name: 'Page', flags: PERFORMED_WORK, children: [link('/items/3', 1)] });
  const skippedParent = fiber(HOST, { name: 'main', children: [skipped] });
  skippedParent.alternate = { ...skippedParent, alternate: null };
  const tree = visited(
    fiber(HOST_ROOT, {
      children: [
        visited(
          fiber(FUNCTION, {
            name: 'RouterRoot',
            flags: 0, // visited, bailed out: its function's output was not used
            children: [
              visited(
                fiber(HOST, {
                  name: 'body',
                  children: [
                    // Mounted in this render: no alternate.
                    fiber(SIMPLE_MEMO, {
                      name: 'ProgressBar',
                      flags: PERFORMED_WORK,
                      children: [fiber(HOST, { name: 'div', attrs: { role: 'progressbar' } })],
                    }),
                    visited(
                      fiber(MEMO, { name: 'Memo', flags: PERFORMED_WORK, children: [link('/items/199', 1)] }),
                    ),
                    link('/items/2', 0),
                    skippedParent,
                  ],
                }),
              ),
            ],
          }),
        ),
      ],
    }),
  );
  expect(renderedInCommit({ current: tree })).toEqual([
    { name: 'ProgressBar', element: '<div role="progressbar">' },
    { name: 'Link', element: '<a href="/items/199">' },
  ]);
});

test('the render target is met by the progress bar and the clicked link alone', () => {
  const bar = { name: 'o', element: '<div role="progressbar">' };
  const clicked = { name: 'g', element: '<a href="/items/199">' };
  const root = { name: 'kt', element: '<html>' };
  expect(clickRendersVerdict([bar, clicked], '/items/199')).toEqual({ ok: true, others: [] });
  expect(clickRendersVerdict([root, bar, clicked], '/items/199')).toEqual({ ok: false, others: [root] });
  expect(clickRendersVerdict([bar, { name: 'g', element: '<a href="/items/2">' }], '/items/199').ok).toBe(
    false,
  );
  // Nothing rendered means pending never showed: the measurement failed, not the target met.
  expect(clickRendersVerdict([], '/items/199').ok).toBe(false);
});

const event = (name: string, ts: number, more: Partial<TraceEvent> = {}): TraceEvent => ({
  name,
  ph: 'X',
  ts,
  pid: 1,
  tid: 1,
  ...more,
});

test('main-thread time sums the CPU of the tasks from the click’s through the painting one', () => {
  const click = { args: { data: { type: 'click' } } };
  const trace = [
    event('RunTask', 0, { dur: 500, tdur: 400 }), // before the click: not counted
    event('RunTask', 1000, { dur: 3000, tdur: 2000 }),
    event('EventDispatch', 1100, { dur: 100, ...click }),
    event('RunTask', 1200, { dur: 100, tdur: 100 }), // nested in the click's task: counted once
    event('RunTask', 5000, { dur: 1000 }), // no thread time given: its wall time
    event('RunTask', 9000, { dur: 2000, tdur: 1500 }),
    event('Paint', 9500, { dur: 100 }),
    event('Paint', 9000, { dur: 100, tid: 2 }), // another thread's
    event('RunTask', 20_000, { dur: 5000, tdur: 5000 }),
    event('bench:new-page', 20_100, { ph: 'R' }),
    event('Paint', 24_000, { dur: 100 }),
    event('RunTask', 30_000, { dur: 100, tdur: 100 }),
  ];
  const isClick = (e: TraceEvent) => e.name === 'EventDispatch';
  expect(mainThreadToPaint(trace, isClick)).toEqual({ cpuMs: 4.5, wallMs: 10, tasks: 3 });
  expect(mainThreadToPaint(trace, isClick, (e) => e.name === 'bench:new-page')).toEqual({
    cpuMs: 9.5,
    wallMs: 24,
    tasks: 4,
  });
  expect(() => mainThreadToPaint(trace, (e) => e.name === 'nothing')).toThrow('no start event');
  expect(() => mainThreadToPaint(trace.slice(0, 6), isClick)).toThrow('no paint after the start');
});

const click: ClickFigures = {
  clickedHref: '/items/199',
  rendered: [
    { name: 'kt', element: '<html>' },
    { name: 'o', element: '<div role="progressbar">' },
    { name: 'g', element: '<a href="/items/199">' },
  ],
  commits: 1,
  toNextPaintMs: 12,
  toNewPageMs: 80,
  barePageLoadMs: 64,
};

test('the click rows: what rendered beyond the target, the next paint in a frame, the new page against bare', () => {
  const [renders, nextPaint, newPage] = clickRows(click);
  expect(renders!.slice(1)).toEqual([
    '3 in 1 commit: `kt <html>`, `o <div role="progressbar">`, `g <a href="/items/199">`',
    '',
    '',
    'the progress bar and the clicked link',
    '✗ also `kt <html>`',
  ]);
  expect(nextPaint!.slice(1)).toEqual(['12 ms', '64 ms', '0.19 ×', '≤ one frame (16.7 ms)', '✓']);
  expect(newPage!.slice(1)).toEqual(['80 ms', '64 ms', '1.25 ×', '≤ 1.0 × bare', '✗ by 0.25 ×']);
});

test('a run from before clicks were traced still reports; one with them shows the rows', () => {
  const run = JSON.parse(
    readFileSync(new URL('../fixtures/bench/run.json', import.meta.url), 'utf8'),
  ) as BenchResults;
  const figures = (r: BenchResults) => tableRows(r).map((row) => row[0]);
  expect(figures(run).some((figure) => figure.startsWith('click:'))).toBe(false);
  expect(figures({ ...run, click }).filter((figure) => figure.startsWith('click:'))).toHaveLength(3);
});

test('the tsc rows: one pair per TypeScript, a run from before with its one', () => {
  const run = JSON.parse(
    readFileSync(new URL('../fixtures/bench/run.json', import.meta.url), 'utf8'),
  ) as BenchResults;
  const tsc = (r: BenchResults) => tableRows(r).filter((row) => row[0]!.startsWith('tsc,'));
  expect(tsc(run)).toHaveLength(2);
  const six = [run.typecheck ?? []].flat()[0]!;
  // Even in check time, 1.6 × in CPU.
  const seven = { ...six, typescript: '7.0.2', typed: { ...six.untyped, cpuMs: six.untyped.cpuMs * 1.6 } };
  const rows = tsc({ ...run, typecheck: [six, seven] });
  expect(rows.map((row) => row[0])).toEqual([
    ...tsc(run).map((row) => row[0]),
    expect.stringContaining('(TypeScript 7.0.2): check time'),
    expect.stringContaining('(TypeScript 7.0.2): memory'),
  ]);
  expect(rows[2]![3]).toMatch(/^1\.00 × \(1\.60 ×\)$/);
  expect(rows[2]![5]).toMatch(/^✗ by 0\.10 ×$/);
});
