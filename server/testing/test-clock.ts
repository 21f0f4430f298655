/**
 * The clock a test moves by hand: `now()` stands still until `advance(ms)`, which fires the
 * timers that fall due on the way, in the order they are due (those due at the same moment in
 * the order they were set), each with `now()` at its own due time. Nothing here reads the real
 * clock or waits on it.
 */
export interface TestClock {
  now(): number;
  /** Moves the clock on by `ms`, firing each timer that falls due, in order. */
  advance(ms: number): void;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Where the clock starts: 2026-01-01T00:00:00Z, a fixed time so that tests repeat exactly. */
export const TEST_CLOCK_START = Date.UTC(2026, 0, 1);

interface Timer {
  id: number;
  due: number;
  callback: () => void;
}

export function createTestClock(start = TEST_CLOCK_START): TestClock {
  let now = start;
  let ids = 0;
  const timers = new Map<number, Timer>();
  const nextDue = (until: number) =>
    [...timers.values()]
      .filter((timer) => timer.due <= until)
      .sort((a, b) => a.due - b.due || a.id - b.id)[0];
  return {
    now: () => now,
    advance(ms) {
      if (!(ms >= 0)) throw new RangeError(`advance takes a number of milliseconds of 0 or more, got ${ms}`);
      const until = now + ms;
      // A timer a callback sets that falls due within the window fires in it too.
      for (let timer = nextDue(until); timer; timer = nextDue(until)) {
        timers.delete(timer.id);
        now = timer.due;
        timer.callback();
      }
      now = until;
    },
    setTimeout(callback, ms) {
      const id = ++ids;
      timers.set(id, { id, due: now + Math.max(0, ms), callback });
      return id;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
  };
}
