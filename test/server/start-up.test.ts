/**
 * The start-up hook runner: a hook that throws or never finishes stops the start with one line,
 * by a deadline read from a fake clock.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { runStartUp } from '../../bin/start-up.js';

afterEach(() => void vi.useRealTimers());

test('no hook, or one that finishes: nothing to say', async () => {
  expect(await runStartUp(undefined, 1_000)).toBeUndefined();
  expect(await runStartUp(async () => {}, 1_000)).toBeUndefined();
});

test('a hook that throws: its message, first line only', async () => {
  const failed = await runStartUp(() => Promise.reject(new Error('Cannot reach db:5432\n    at x')), 1_000);
  expect(failed).toBe('Start-up failed: Cannot reach db:5432');
});

test('an AggregateError with no message of its own: the messages of its errors', async () => {
  const error = new AggregateError([
    new Error('connect ECONNREFUSED ::1:5432'),
    new Error('connect ECONNREFUSED 127.0.0.1:5432'),
  ]);
  expect(await runStartUp(() => Promise.reject(error), 1_000)).toBe(
    'Start-up failed: connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432',
  );
});

test('a hook that never finishes fails at the deadline', async () => {
  vi.useFakeTimers();
  const result = runStartUp(() => new Promise(() => {}), 30_000, { setTimeout, clearTimeout } as never);
  await vi.advanceTimersByTimeAsync(29_999);
  let settled = false;
  void result.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(0);
  expect(settled).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(await result).toBe('Start-up failed: the start-up hook did not finish within 30000 ms.');
});
