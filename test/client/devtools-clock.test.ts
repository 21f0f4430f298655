/**
 * The devtools clock moves the router's clock, and the cache's statuses with it, without
 * waiting: an unused auto entry is stale 31 s after its prefetch.
 */
import { expect, test, vi } from 'vitest';
import { createDevtoolsClock } from '../../client/devtools/clock';
import { flush, harness, prefetchAnswer, jsonResponse, start } from '../helpers/router-harness';

test('moving the clock by 31 s turns an unused auto entry stale; back to real time, fresh again', async () => {
  vi.useFakeTimers();
  try {
    const h = harness();
    const router = start(h);
    const clock = createDevtoolsClock(h.effects);
    void router.prefetch('/b');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    await flush();
    expect(router.devtools().entries[0]).toMatchObject({ status: 'fresh', nextChangeIn: 30_000 });
    clock.move(31_000);
    expect(clock.offset()).toBe(31_000);
    expect(router.devtools().entries[0]).toMatchObject({ status: 'stale', nextChangeIn: 269_000 });
    clock.move(270_000);
    expect(router.devtools().entries[0]).toMatchObject({ status: 'expired', expiresIn: 0 });
    clock.reset();
    expect(router.devtools().now).toBe(h.clock.now);
  } finally {
    vi.useRealTimers();
  }
});

test('an entry made while the clock was ahead is expired once it is put back: a click fetches the page', async () => {
  vi.useFakeTimers();
  try {
    const h = harness();
    const router = start(h);
    const clock = createDevtoolsClock(h.effects);
    clock.move(300_000);
    void router.prefetch('/b');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    await flush();
    clock.reset();
    expect(router.devtools().entries[0]).toMatchObject({ status: 'expired', nextChangeIn: 0, expiresIn: 0 });
    const click = router.navigate('/b');
    expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=%2F&_syp=auto', '/b?_sy=%2F']);
    h.fetches[1]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    expect(await click).toMatchObject({ status: 'committed', url: '/b' });
  } finally {
    vi.useRealTimers();
  }
});

test('real time is the original function itself: an unmoved clock adds nothing', () => {
  const effects = { now: () => 5 };
  const original = effects.now;
  const clock = createDevtoolsClock(effects);
  clock.move(1_000);
  expect(effects.now()).toBe(1_005);
  clock.reset();
  expect(effects.now).toBe(original);
});
