/**
 * The prefetch queue. How it works: a count of slot-jobs owns the concurrency (5 by default);
 * each `add` gives it one slot-job, and a slot-job, when it runs, takes the task at the front
 * of our own lists. Keeping the order in our lists lets `bump(key)` take a waiting task out
 * and start it at once, outside the limit — a navigation must never wait behind prefetches —
 * and the slot-job it leaves behind then simply runs the next task.
 *
 * Two lanes, each first in, first out: `intent` (the pointer is on the link: a likely click)
 * runs before `viewport` (the link is only in view), and `promote` moves a viewport task there.
 * The same key is never in flight twice: adding a key that is waiting or running returns the
 * promise already there. At most `maxWaiting` tasks wait: past that the
 * oldest viewport task is dropped (its promise rejects with `QueueFull`), since the links seen
 * last are the likelier clicks, and its slot-job runs the newcomer — so the slot-jobs waiting
 * stay bounded too. `cancel` drops every task, waiting or running, but one; `drop`, one waiting.
 *
 * `pause` keeps every waiting task from starting until each pause is resumed: a navigation on
 * its way has the link to itself, and its own entry still starts through `bump`. Slot-jobs wait
 * meanwhile, and run when the last pause ends.
 */
import { PREFETCH_CONCURRENCY, PREFETCH_MAX_WAITING } from './constants.js';

/** A task dropped by the queue, not failed by its URL: nothing is known of the URL. */
export class Dropped extends Error {}
/** Dropped unstarted to keep the waiting list bounded. */
export class QueueFull extends Dropped {}

export type Lane = 'intent' | 'viewport';

/** What a running task hears of its cancellation (shared code knows no `AbortSignal`). */
export interface Cancellation {
  onCancel(listener: (reason: Dropped) => void): void;
}

type Run<T> = (cancellation: Cancellation) => Promise<T>;

interface Task<T> {
  key: string;
  run: Run<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
  promise: Promise<T>;
  listeners: ((reason: Dropped) => void)[];
}

export interface PrefetchQueue {
  add<T>(key: string, run: Run<T>, lane?: Lane): Promise<T>;
  /** Moves a waiting viewport task to the intent lane: it starts before every viewport task. */
  promote(key: string): void;
  /** Starts a waiting task now, even with every slot taken. Returns false if it was not waiting. */
  bump(key: string): boolean;
  /** Drops a waiting task: it never starts, and its promise rejects with `Dropped`. Returns the lane it waited in, if it did. */
  drop(key: string): Lane | undefined;
  /**
   * Drops every task but `keep`'s: waiting ones never start, running ones hear it through their
   * `Cancellation` (to abort their requests). Their promises reject with `Dropped` at once.
   */
  cancel(keep?: string): void;
  /** No waiting task starts until the returned resume is called (once; more calls do nothing). */
  pause(): () => void;
  has(key: string): boolean;
  readonly activeCount: number;
  readonly pendingCount: number;
  running(): string[];
  /** Waiting keys in the order they will start: the intent lane, then the viewport lane. */
  waiting(): string[];
}

export function createPrefetchQueue(
  concurrency = PREFETCH_CONCURRENCY,
  maxWaiting = PREFETCH_MAX_WAITING,
): PrefetchQueue {
  const lanes: Record<Lane, Task<unknown>[]> = { intent: [], viewport: [] };
  const running = new Map<string, Task<unknown>>();
  const waitingCount = () => lanes.intent.length + lanes.viewport.length;
  let slotJobs = 0;
  let pauses = 0;
  let busySlots = 0;
  /** Runs slot-jobs while a slot is free; each frees its slot when its task settles. */
  const runSlotJobs = () => {
    for (; pauses === 0 && slotJobs > 0 && busySlots < concurrency; slotJobs--) {
      busySlots++;
      const next = lanes.intent.shift() ?? lanes.viewport.shift();
      void (next ? start(next) : Promise.resolve()).then(() => {
        busySlots--;
        runSlotJobs();
      });
    }
  };

  const start = (task: Task<unknown>): Promise<void> => {
    running.set(task.key, task);
    return task
      .run({ onCancel: (listener) => task.listeners.push(listener) })
      .then(task.resolve, task.reject)
      .finally(() => running.get(task.key) === task && running.delete(task.key));
  };

  /** Where a waiting task is: its lane and its place in it. */
  const find = (key: string): { lane: Task<unknown>[]; index: number } | undefined => {
    for (const lane of Object.values(lanes)) {
      const index = lane.findIndex((t) => t.key === key);
      if (index >= 0) return { lane, index };
    }
    return undefined;
  };

  return {
    add<T>(key: string, run: Run<T>, lane: Lane = 'viewport'): Promise<T> {
      const active = running.get(key);
      if (active) return active.promise as Promise<T>;
      const queued = find(key);
      if (queued) return queued.lane[queued.index]!.promise as Promise<T>;
      let resolve!: (value: T) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      const task = { key, run, resolve, reject, promise, listeners: [] };
      lanes[lane].push(task as Task<unknown>);
      if (waitingCount() > maxWaiting) {
        // The oldest viewport task goes; the slot-job it had will run whichever task is first.
        const dropped = lanes.viewport.shift() ?? lanes.intent.shift()!;
        dropped.reject(new QueueFull('the prefetch queue is full'));
        return promise;
      }
      // One slot-job per task; it runs whichever task is at the front when its turn comes, a
      // microtask later: whoever added it has the task's promise before its run starts.
      slotJobs++;
      void Promise.resolve().then(runSlotJobs);
      return promise;
    },
    promote(key) {
      // The task keeps its slot-job: it only moves up, to the back of the intent lane.
      const index = lanes.viewport.findIndex((t) => t.key === key);
      if (index >= 0) lanes.intent.push(lanes.viewport.splice(index, 1)[0]!);
    },
    bump(key) {
      const found = find(key);
      if (!found) return false;
      void start(found.lane.splice(found.index, 1)[0]!);
      return true;
    },
    drop(key) {
      const found = find(key);
      if (!found) return undefined;
      found.lane.splice(found.index, 1)[0]!.reject(new Dropped('prefetch replaced'));
      return found.lane === lanes.intent ? 'intent' : 'viewport';
    },
    cancel(keep) {
      const dropped = new Dropped('prefetch cancelled');
      for (const lane of Object.values(lanes)) {
        for (const task of lane.splice(0)) {
          if (task.key === keep) lane.push(task);
          else task.reject(dropped);
        }
      }
      for (const task of running.values()) {
        if (task.key === keep) continue;
        running.delete(task.key); // its slot frees when its run settles, which the abort hurries
        task.listeners.forEach((listener) => listener(dropped));
        task.reject(dropped);
      }
    },
    pause() {
      pauses++;
      let resumed = false;
      return () => {
        if (resumed) return;
        resumed = true;
        if (--pauses === 0) runSlotJobs();
      };
    },
    has: (key) => running.has(key) || find(key) !== undefined,
    get activeCount() {
      return running.size;
    },
    get pendingCount() {
      return waitingCount();
    },
    running: () => [...running.keys()],
    waiting: () => [...lanes.intent, ...lanes.viewport].map((t) => t.key),
  };
}
