/**
 * The prefetch queue. How it works: `p-limit` owns the concurrency (5 by default);
 * each `add` gives it one slot-job, and a slot-job, when it runs, takes the task at the front
 * of our own FIFO list. Keeping the order in our list lets `bump(key)` take a waiting task out
 * and start it at once, outside the limit — a navigation must never wait behind prefetches —
 * and the slot-job it leaves behind then simply runs the next task.
 *
 * The same key is never in flight twice: adding a key that is waiting or running returns the
 * promise already there. At most `maxWaiting` tasks wait: past that the oldest waiting one is
 * dropped (its promise rejects with `QueueFull`), since the links seen last are the likelier
 * clicks, and its slot-job runs the newcomer — so p-limit's own list stays bounded too.
 */
import pLimit from 'p-limit';
import { PREFETCH_CONCURRENCY, PREFETCH_MAX_WAITING } from './constants';

/** A task dropped unstarted to keep the waiting list bounded: not a failure of its URL. */
export class QueueFull extends Error {}

interface Task<T> {
  key: string;
  run: () => Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
  promise: Promise<T>;
}

export interface PrefetchQueue {
  add<T>(key: string, run: () => Promise<T>): Promise<T>;
  /** Starts a waiting task now, even with every slot taken. Returns false if it was not waiting. */
  bump(key: string): boolean;
  /** Cancels every waiting task (their promises reject); running ones finish. */
  clear(): void;
  has(key: string): boolean;
  readonly activeCount: number;
  readonly pendingCount: number;
  running(): string[];
  waiting(): string[];
}

export function createPrefetchQueue(
  concurrency = PREFETCH_CONCURRENCY,
  maxWaiting = PREFETCH_MAX_WAITING,
): PrefetchQueue {
  const limit = pLimit(concurrency);
  const waiting: Task<unknown>[] = [];
  const running = new Map<string, Task<unknown>>();

  const start = (task: Task<unknown>): Promise<void> => {
    running.set(task.key, task);
    return task
      .run()
      .then(task.resolve, task.reject)
      .finally(() => running.delete(task.key));
  };

  return {
    add<T>(key: string, run: () => Promise<T>): Promise<T> {
      const existing = running.get(key) ?? waiting.find((t) => t.key === key);
      if (existing) return existing.promise as Promise<T>;
      let resolve!: (value: T) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      waiting.push({ key, run, resolve, reject, promise } as Task<unknown>);
      if (waiting.length > maxWaiting) {
        // The oldest waiting task goes; the slot-job it had will run whichever task is first.
        waiting.shift()!.reject(new QueueFull('the prefetch queue is full'));
        return promise;
      }
      // One slot-job per task; it runs whichever task is at the front when its turn comes.
      void limit(async () => {
        const next = waiting.shift();
        if (next) await start(next);
      });
      return promise;
    },
    bump(key) {
      const index = waiting.findIndex((t) => t.key === key);
      if (index < 0) return false;
      const [task] = waiting.splice(index, 1);
      void start(task!);
      return true;
    },
    clear() {
      for (const task of waiting.splice(0)) task.reject(new Error('prefetch cancelled'));
    },
    has: (key) => running.has(key) || waiting.some((t) => t.key === key),
    get activeCount() {
      return running.size;
    },
    get pendingCount() {
      return waiting.length;
    },
    running: () => [...running.keys()],
    waiting: () => waiting.map((t) => t.key),
  };
}
