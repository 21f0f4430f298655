/**
 * `batched`: keys asked for in one synchronous run are loaded by one call, each caller gets its
 * own key's value, a failure reaches every caller of its batch, and nothing is kept for the next.
 */
import { expect, test } from 'vitest';
import { batched } from '../../src/lib/batched';

function recorded(fail = false) {
  const calls: string[][] = [];
  const get = batched(async (keys: string[]) => {
    calls.push(keys);
    if (fail) throw new Error('the database is down');
    return new Map(keys.filter((key) => key !== 'missing').map((key) => [key, key.toUpperCase()]));
  });
  return { calls, get };
}

test('keys asked for together are one load; each caller gets its own value', async () => {
  const { calls, get } = recorded();
  expect(await Promise.all(['a', 'b', 'a', 'missing'].map(get))).toEqual(['A', 'B', 'A', undefined]);
  expect(calls).toEqual([['a', 'b', 'missing']]);
});

test('a key asked for after the batch went out is a batch of its own, loaded afresh', async () => {
  const { calls, get } = recorded();
  await get('a');
  const later = get('a');
  expect(await later).toBe('A');
  expect(calls).toEqual([['a'], ['a']]);
});

test('a failed load fails every caller of its batch, and only those', async () => {
  const failing = recorded(true);
  const answers = await Promise.allSettled(['a', 'b'].map(failing.get));
  expect(answers.map((answer) => answer.status)).toEqual(['rejected', 'rejected']);
  expect(failing.calls).toEqual([['a', 'b']]);
});
