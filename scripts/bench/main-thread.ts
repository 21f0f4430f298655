/**
 * Main-thread time from a Chromium trace: the CPU time (`tdur`, thread time, so a busy machine
 * that delays the renderer does not inflate it) of the renderer main thread's top-level tasks,
 * from the task in which something starts (a click's dispatch, a document's navigation) through
 * the task that paints next (the frame holding the first `Paint` event after it). Idle time in
 * between — waiting for the network — is not main-thread time and is not counted.
 */

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { data?: Record<string, unknown> };
}

export interface MainThreadSpan {
  /** CPU time of the main thread's tasks in the span, in milliseconds. */
  cpuMs: number;
  /** The span's wall time, from the start to the end of the painting task, in milliseconds. */
  wallMs: number;
  tasks: number;
}

/**
 * The span from the first event `isStart` accepts to the end of the first frame painted at or
 * after `paintAfter` (by default, the start itself), on the start event's thread. Throws when
 * the trace holds no such start or no paint after it.
 */
export function mainThreadToPaint(
  events: readonly TraceEvent[],
  isStart: (event: TraceEvent) => boolean,
  paintAfter?: (event: TraceEvent) => boolean,
): MainThreadSpan {
  const start = events.find(isStart);
  if (!start) throw new Error('the trace holds no start event');
  const onThread = (e: TraceEvent) => e.pid === start.pid && e.tid === start.tid;
  const after = paintAfter ? events.find((e) => onThread(e) && e.ts >= start.ts && paintAfter(e)) : start;
  if (!after) throw new Error('the trace holds no event to paint after');
  const paint = events
    .filter((e) => onThread(e) && e.name === 'Paint' && e.ts >= after.ts)
    .sort((a, b) => a.ts - b.ts)[0];
  if (!paint) throw new Error('the trace holds no paint after the start');
  const tasks = topLevelTasks(events.filter(onThread));
  // The span starts with the task holding the start event (or the first task after it, for a
  // navigation whose start is stamped before the document's first task).
  const first = tasks.findIndex((t) => t.ts + t.dur! >= start.ts);
  const last = tasks.findIndex((t) => t.ts <= paint.ts && paint.ts <= t.ts + t.dur!);
  if (first === -1 || last === -1 || last < first) throw new Error('the paint is in no task after the start');
  const span = tasks.slice(first, last + 1);
  const end = span.at(-1)!;
  return {
    cpuMs: span.reduce((sum, t) => sum + (t.tdur ?? t.dur!), 0) / 1000,
    wallMs: (end.ts + end.dur! - Math.min(start.ts, span[0]!.ts)) / 1000,
    tasks: span.length,
  };
}

/** Complete `RunTask` events in time order, without tasks nested in another (a nested run loop). */
function topLevelTasks(events: readonly TraceEvent[]): TraceEvent[] {
  const tasks = events
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts);
  const outer: TraceEvent[] = [];
  for (const task of tasks) {
    const previous = outer.at(-1);
    if (!previous || task.ts >= previous.ts + previous.dur!) outer.push(task);
  }
  return outer;
}
