/**
 * What the Sentry chunk sends: a server error once per digest, whichever hook saw it first;
 * errors without a digest each time.
 */
import { expect, test, vi } from 'vitest';
import type { Capture } from '../../client/error-reporting';
import { oncePerDigest } from '../../client/sentry-browser';
import { serverError } from '../../shared/error-messages';

test('a server error met twice (recoverable, then caught) is one event: one per digest', () => {
  const send = vi.fn<Capture>();
  const capture = oncePerDigest(send);
  const recoverable = Object.assign(new Error('Minified React error #419'), { digest: 'abc1234567' });
  const plain = new Error('a client error');
  capture('recoverable', recoverable, {});
  capture('caught', serverError('abc1234567'), {});
  capture('caught', serverError('def1234567'), {});
  capture('caught', plain, {});
  capture('caught', plain, {});
  expect(send.mock.calls.map(([kind, error]) => [kind, (error as { digest?: string }).digest])).toEqual([
    ['recoverable', 'abc1234567'],
    ['caught', 'def1234567'],
    ['caught', undefined],
    ['caught', undefined],
  ]);
});
