import { describe, expect, test } from 'vitest';
import { createPrefetchQueue, Dropped, QueueFull } from '../../shared/prefetch-queue';
import { deferred, type Deferred } from '../helpers/deferred';

/** Lets the queue's promise hops run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function tasks(n: number) {
  const replies: Record<string, Deferred<string>> = {};
  const started: string[] = [];
  const keys = Array.from({ length: n }, (_, i) => `/p/${i + 1}`);
  for (const key of keys) replies[key] = deferred<string>();
  const run = (key: string) => () => {
    started.push(key);
    return replies[key]!.promise;
  };
  return { keys, replies, started, run };
}

describe('prefetch queue', () => {
  test('the waiting list is bounded: past it the oldest waiting task is dropped, and the newest still runs', async () => {
    const { keys, replies, started, run } = tasks(6);
    const queue = createPrefetchQueue(1, 2);
    const add = (key: string) =>
      queue.add(key, run(key)).then(
        () => `${key} ran`,
        (error: unknown) => `${key} ${error instanceof QueueFull ? 'dropped' : 'failed'}`,
      );
    const outcomes = [add(keys[0]!)];
    await settle(); // /p/1 takes the one place
    outcomes.push(...keys.slice(1).map(add));
    await settle();
    // /p/1 runs; of /p/2../p/6 only the two added last still wait.
    expect(queue.running()).toEqual(['/p/1']);
    expect(queue.waiting()).toEqual(['/p/5', '/p/6']);
    for (const key of ['/p/1', '/p/5', '/p/6']) {
      replies[key]!.resolve('ok');
      await settle();
    }
    expect(await Promise.all(outcomes)).toEqual([
      '/p/1 ran',
      '/p/2 dropped',
      '/p/3 dropped',
      '/p/4 dropped',
      '/p/5 ran',
      '/p/6 ran',
    ]);
    expect(started).toEqual(['/p/1', '/p/5', '/p/6']);
    expect(queue.pendingCount).toBe(0);
  });

  test('at most 5 run at once; the rest wait their turn, first in first out', async () => {
    const queue = createPrefetchQueue();
    const { keys, replies, started, run } = tasks(8);
    keys.forEach((key) => void queue.add(key, run(key)));
    await settle();
    expect(started).toEqual(keys.slice(0, 5));
    expect(queue.running()).toEqual(keys.slice(0, 5));
    expect(queue.waiting()).toEqual(keys.slice(5));
    replies['/p/2']!.resolve('done');
    await settle();
    expect(started).toEqual(keys.slice(0, 6));
    expect(queue.activeCount).toBe(5);
    expect(queue.pendingCount).toBe(2);
  });

  test('never more than 5, whatever order tasks finish in', async () => {
    const queue = createPrefetchQueue();
    const { keys, replies, run } = tasks(20);
    let peak = 0;
    keys.forEach((key) => void queue.add(key, run(key)));
    for (const key of [...keys].reverse().concat(keys)) {
      await settle();
      peak = Math.max(peak, queue.activeCount);
      replies[key]!.resolve(key);
    }
    await settle();
    expect(peak).toBe(5);
    expect(queue.activeCount + queue.pendingCount).toBe(0);
  });

  test('the same key is never fetched twice at once', async () => {
    const queue = createPrefetchQueue();
    const { replies, started, run } = tasks(1);
    const first = queue.add('/p/1', run('/p/1'));
    const second = queue.add('/p/1', run('/p/1'));
    expect(second).toBe(first);
    await settle();
    const third = queue.add('/p/1', run('/p/1')); // running now
    expect(third).toBe(first);
    replies['/p/1']!.resolve('once');
    expect(await third).toBe('once');
    expect(started).toEqual(['/p/1']);
  });

  test('bump starts a waiting key at once, even with every slot taken, and only through bump is there a sixth', async () => {
    const queue = createPrefetchQueue();
    const { keys, replies, started, run } = tasks(8);
    keys.forEach((key) => void queue.add(key, run(key)));
    await settle();
    expect(queue.bump('/p/8')).toBe(true);
    await settle();
    expect(started).toEqual([...keys.slice(0, 5), '/p/8']);
    expect(queue.activeCount).toBe(6);
    expect(queue.waiting()).toEqual(['/p/6', '/p/7']);
    // The slot the bumped task left behind goes to the next in line, not to a seventh runner.
    replies['/p/1']!.resolve('x');
    await settle();
    expect(started).toEqual([...keys.slice(0, 5), '/p/8', '/p/6']);
    expect(queue.activeCount).toBe(6);
    replies['/p/2']!.resolve('x');
    replies['/p/8']!.resolve('x');
    await settle();
    expect(started.at(-1)).toBe('/p/7');
    expect(queue.activeCount).toBe(5);
    expect(queue.bump('/p/1')).toBe(false); // not waiting: nothing to do
  });

  test('while paused no waiting task starts but through bump; they start in order once every pause is resumed', async () => {
    const queue = createPrefetchQueue(2);
    const { keys, replies, started, run } = tasks(4);
    void queue.add('/p/1', run('/p/1'));
    await settle();
    const resume = queue.pause();
    const other = queue.pause();
    keys.slice(1).forEach((key) => void queue.add(key, run(key)));
    replies['/p/1']!.resolve('x'); // a slot frees: no task takes it
    await settle();
    expect(started).toEqual(['/p/1']);
    expect(queue.waiting()).toEqual(['/p/2', '/p/3', '/p/4']);
    expect(queue.bump('/p/4')).toBe(true); // a navigation's own entry still goes
    await settle();
    expect(started).toEqual(['/p/1', '/p/4']);
    resume();
    resume(); // once is all it counts: the other pause stands
    await settle();
    expect(started).toEqual(['/p/1', '/p/4']);
    other();
    await settle();
    expect(started).toEqual(['/p/1', '/p/4', '/p/2', '/p/3']);
    expect(queue.running()).toEqual(['/p/4', '/p/2', '/p/3']);
  });

  test('cancel drops every task but one: waiting ones never start, running ones are aborted', async () => {
    const queue = createPrefetchQueue(2);
    const { keys, started } = tasks(4);
    const cancelled: string[] = [];
    const replies: Record<string, Deferred<string>> = {};
    const outcomes = keys.map((key) => {
      replies[key] = deferred<string>();
      return queue
        .add(key, (cancellation) => {
          started.push(key);
          cancellation.onCancel(() => cancelled.push(key));
          return replies[key]!.promise;
        })
        .then(
          (value) => `${key} ${value}`,
          (error: unknown) => `${key} ${error instanceof Dropped ? 'dropped' : 'failed'}`,
        );
    });
    await settle();
    expect(queue.running()).toEqual(['/p/1', '/p/2']);
    queue.cancel('/p/2');
    expect(cancelled).toEqual(['/p/1']); // the running one hears it, to abort its request
    expect(queue.running()).toEqual(['/p/2']);
    expect(queue.waiting()).toEqual([]);
    replies['/p/2']!.resolve('kept');
    replies['/p/1']!.reject(new Error('aborted'));
    expect(await Promise.all(outcomes)).toEqual([
      '/p/1 dropped',
      '/p/2 kept',
      '/p/3 dropped',
      '/p/4 dropped',
    ]);
    await settle();
    expect(started).toEqual(['/p/1', '/p/2']); // the cancelled ones never start, even as slots free up
    expect(queue.activeCount + queue.pendingCount).toBe(0);
  });

  test('drop takes one waiting task out: it never starts, and a running one is left alone', async () => {
    const { keys, replies, started, run } = tasks(3);
    const queue = createPrefetchQueue(1);
    const outcomes = keys.map((key) =>
      queue.add(key, run(key)).then(
        () => `${key} ran`,
        (error: unknown) => `${key} ${error instanceof Dropped ? 'dropped' : 'failed'}`,
      ),
    );
    await settle();
    // It says where the one it took waited: a running task is not waiting.
    expect(queue.drop('/p/1')).toBeUndefined();
    expect(queue.drop('/p/2')).toBe('viewport');
    expect(queue.running()).toEqual(['/p/1']);
    expect(queue.waiting()).toEqual(['/p/3']);
    replies['/p/1']!.resolve('ok');
    await settle();
    replies['/p/3']!.resolve('ok');
    expect(await Promise.all(outcomes)).toEqual(['/p/1 ran', '/p/2 dropped', '/p/3 ran']);
    expect(started).toEqual(['/p/1', '/p/3']);
  });

  test('intent goes before viewport: an intent task, or a promoted one, starts before every viewport task', async () => {
    const queue = createPrefetchQueue(1);
    const { keys, replies, started, run } = tasks(5);
    void queue.add('/p/1', run('/p/1'));
    await settle(); // /p/1 takes the one place
    for (const key of keys.slice(1, 4)) void queue.add(key, run(key));
    void queue.add('/p/5', run('/p/5'), 'intent');
    queue.promote('/p/3');
    await settle();
    expect(queue.waiting()).toEqual(['/p/5', '/p/3', '/p/2', '/p/4']);
    for (const key of ['/p/1', '/p/5', '/p/3', '/p/2', '/p/4']) {
      replies[key]!.resolve('ok');
      await settle();
    }
    expect(started).toEqual(['/p/1', '/p/5', '/p/3', '/p/2', '/p/4']);
  });

  test('a full queue drops its oldest viewport task before any intent one', async () => {
    const queue = createPrefetchQueue(1, 2);
    const { replies, run } = tasks(4);
    const outcome = (key: string, lane?: 'intent') =>
      queue.add(key, run(key), lane).then(
        () => `${key} ran`,
        (error: unknown) => `${key} ${error instanceof QueueFull ? 'dropped' : 'failed'}`,
      );
    const first = outcome('/p/1');
    await settle();
    const rest = [outcome('/p/2', 'intent'), outcome('/p/3'), outcome('/p/4')];
    await settle();
    expect(queue.waiting()).toEqual(['/p/2', '/p/4']);
    for (const key of ['/p/1', '/p/2', '/p/4']) {
      replies[key]!.resolve('ok');
      await settle();
    }
    expect(await Promise.all([first, ...rest])).toEqual(['/p/1 ran', '/p/2 ran', '/p/3 dropped', '/p/4 ran']);
  });

  test('a queue full of intent alone drops its oldest intent task: the bound holds for both lanes', async () => {
    const queue = createPrefetchQueue(1, 2);
    const { replies, run } = tasks(4);
    const outcome = (key: string) =>
      queue.add(key, run(key), 'intent').then(
        () => `${key} ran`,
        (error: unknown) => `${key} ${error instanceof QueueFull ? 'dropped' : 'failed'}`,
      );
    const first = outcome('/p/1');
    await settle();
    const all = [first, ...['/p/2', '/p/3', '/p/4'].map(outcome)];
    await settle();
    expect(queue.waiting()).toEqual(['/p/3', '/p/4']);
    for (const key of ['/p/1', '/p/3', '/p/4']) {
      replies[key]!.resolve('ok');
      await settle();
    }
    expect(await Promise.all(all)).toEqual(['/p/1 ran', '/p/2 dropped', '/p/3 ran', '/p/4 ran']);
  });
});
