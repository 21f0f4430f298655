/**
 * The devtools clock moves the router's clock, and the cache's statuses with it, without
 * waiting: an unused auto entry is stale 31 s after its prefetch. The clock comes with the
 * devtools' API, loaded after the router started: it must still move the router's own clock.
 */
import { expect, test, vi } from 'vitest';
import { createDevtoolsApi } from '../../client/devtools/api';
import { createDevtoolsClock } from '../../client/devtools/clock';
import { devtoolsSnapshot } from '../../client/devtools/snapshot';
import { flush, harness, prefetchAnswer, jsonResponse, start } from '../helpers/router-harness';

test('moving the clock by 31 s turns an unused auto entry stale; back to real time, fresh again', async () => {
  vi.useFakeTimers();
  try {
    const h = harness();
    const router = start(h);
    void router.prefetch('/b');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    await flush();
    const api = createDevtoolsApi(router, h.effects);
    expect(api.snapshot()).toMatchObject({
      clockOffset: 0,
      entries: [{ status: 'fresh', nextChangeIn: 30_000 }],
    });
    api.moveClock(31_000);
    expect(api.snapshot()).toMatchObject({ clockOffset: 31_000, now: h.clock.now + 31_000 });
    expect(api.snapshot().entries[0]).toMatchObject({ status: 'stale', nextChangeIn: 269_000 });
    api.moveClock(270_000);
    expect(api.snapshot().entries[0]).toMatchObject({ status: 'expired', expiresIn: 0 });
    // The router itself reads the moved clock: a lookup prunes the entry it has expired.
    const click = router.navigate('/b');
    expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=%2F&_syp=auto', '/b?_sy=%2F']);
    h.fetches[1]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    await click;
    api.resetClock();
    expect(api.snapshot()).toMatchObject({ clockOffset: 0, now: h.clock.now });
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
    expect(devtoolsSnapshot(router).entries[0]).toMatchObject({
      status: 'expired',
      nextChangeIn: 0,
      expiresIn: 0,
    });
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
