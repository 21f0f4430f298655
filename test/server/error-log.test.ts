/**
 * The server log keeps one stack per error: a failing page prefetched by every visitor must not
 * fill the log with the same stack again and again.
 */
import { expect, test } from 'vitest';
import { logStacksOnce } from '../../server/http/error-log';

test('a digest is logged with its error once, then as one line with a count', () => {
  const lines: [string, unknown][] = [];
  const log = logStacksOnce((message, error) => lines.push([message, error]));
  const error = new Error('boom');
  log('[switchyard] GET /lab/server-error failed, digest abc', error);
  log('[switchyard] GET /lab/server-error failed, digest abc', error);
  log('[switchyard] GET /lab/server-error failed, digest abc', error);
  expect(lines).toEqual([
    ['[switchyard] GET /lab/server-error failed, digest abc', error],
    [
      '[switchyard] GET /lab/server-error failed, digest abc (again: 2 times so far; its stack was logged the first time)',
      undefined,
    ],
    [
      '[switchyard] GET /lab/server-error failed, digest abc (again: 3 times so far; its stack was logged the first time)',
      undefined,
    ],
  ]);
});

test('lines without a digest are always logged whole', () => {
  const lines: unknown[] = [];
  const log = logStacksOnce((message, error) => lines.push(error));
  const error = new Error('x');
  log('[switchyard] unhandled error', error);
  log('[switchyard] unhandled error', error);
  expect(lines).toEqual([error, error]);
});

test('the digests remembered are bounded: the oldest is forgotten first', () => {
  const stacks: string[] = [];
  const log = logStacksOnce((message, error) => error && stacks.push(message), 2);
  for (const digest of ['a', 'b', 'c', 'a']) log(`failed, digest ${digest}`, new Error(digest));
  expect(stacks).toEqual(['failed, digest a', 'failed, digest b', 'failed, digest c', 'failed, digest a']);
});
