/**
 * What the promises of `navigate`, `refresh`, `onPopState` and `prefetch` resolve to: one
 * outcome per navigation, never a rejection, never a promise left pending. The router core with
 * injected effects and clock; replies are settled by hand.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { FRESH_WINDOW_MS } from '../../shared/constants';
import {
  BUILD,
  answer,
  flush,
  harness,
  jsonResponse,
  ORIGIN,
  prefetchAnswer,
  start,
} from '../helpers/router-harness';

vi.mock('react', () => {
  throw new Error('the router core imported React');
});

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const redirectTo = (location: string, url = '/old') =>
  jsonResponse({ buildId: BUILD, url, status: 200, redirect: { location, status: 307 } });

describe('a navigation settles with its outcome', () => {
  test('committed, at the URL on screen', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/photos/3?q=1#c');
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/photos/3?q=1', 'photos')));
    expect(await done).toEqual({ status: 'committed', url: '/photos/3?q=1#c', redirected: false });
  });

  test('committed when its loading state commits, before the rest of the page is back', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/slow');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/slow', 'slow', 1)));
    await flush();
    const outcome = vi.fn();
    void router.navigate('/slow').then(outcome);
    await flush();
    expect(h.fetches.map((f) => f.url).at(-1)).toBe('/slow?_sy=&_syp=rest'); // still on its way
    expect(outcome).toHaveBeenCalledWith({ status: 'committed', url: '/slow', redirected: false });
  });

  test('a newer navigation supersedes the older one, whose promise settles aborted at once', async () => {
    const h = harness();
    const router = start(h);
    const first = router.navigate('/a');
    const second = router.navigate('/b');
    expect(await first).toEqual({ status: 'aborted', reason: 'superseded' });
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    expect(await second).toMatchObject({ status: 'committed', url: '/b' });
  });

  test('a redirect is one navigation, committed at its target and marked redirected', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/old');
    h.fetches[0]!.reply.resolve(redirectTo('/photos/3'));
    await flush();
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/photos/3', 'photos')));
    expect(await done).toEqual({ status: 'committed', url: '/photos/3', redirected: true });
  });

  test('a redirect to the page on screen commits nothing and settles there', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/old');
    h.fetches[0]!.reply.resolve(redirectTo('/'));
    expect(await done).toEqual({ status: 'committed', url: '/', redirected: true });
    expect(router.getSnapshot().commit).toBe(0);
  });

  test('hard, settled before the browser is sent away, when page data fails', async () => {
    const h = harness();
    const router = start(h);
    const assignedWhenSettled: string[][] = [];
    router.onNavigation((event) => event.type === 'hard' && assignedWhenSettled.push([...h.assigned]));
    const done = router.navigate('/x');
    h.fetches[0]!.reply.resolve(new Response('', { status: 500 }));
    expect(await done).toEqual({ status: 'hard', url: `${ORIGIN}/x` });
    expect(assignedWhenSettled).toEqual([[]]);
    expect(h.assigned).toEqual([`${ORIGIN}/x`]);
  });

  test('hard for another origin and for a URL that is no page', async () => {
    const h = harness();
    const router = start(h);
    expect(await router.navigate('https://elsewhere.example/x')).toEqual({
      status: 'hard',
      url: 'https://elsewhere.example/x',
    });
    const done = router.navigate('/feed.xml');
    h.fetches[0]!.reply.resolve(
      jsonResponse({ buildId: BUILD, url: '/feed.xml', status: 200, document: true }),
    );
    expect(await done).toEqual({ status: 'hard', url: `${ORIGIN}/feed.xml` });
  });

  test('aborted as failed when the reload guard refuses a second full load: the page stays', async () => {
    const h = harness();
    h.stored.value = JSON.stringify({ href: `${ORIGIN}/x`, at: h.clock.now - 1 });
    const router = start(h);
    const done = router.navigate('/x');
    h.fetches[0]!.reply.resolve(new Response('', { status: 500 }));
    expect(await done).toEqual({ status: 'aborted', reason: 'failed' });
    expect(h.assigned).toEqual([]);
  });

  test('a hash on the page commits at once', async () => {
    const h = harness();
    const router = start(h);
    expect(await router.navigate('/#comments')).toEqual({
      status: 'committed',
      url: '/#comments',
      redirected: false,
    });
  });

  test('refresh and revalidate commit the page on screen', async () => {
    const h = harness();
    const router = start(h);
    const refreshed = router.refresh();
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/', 'feed')));
    expect(await refreshed).toEqual({ status: 'committed', url: '/', redirected: false });
    const revalidated = router.revalidate([{ path: '/', type: 'page' }]);
    h.fetches[1]!.reply.resolve(jsonResponse(answer('/', 'feed')));
    expect(await revalidated).toEqual({ status: 'committed', url: '/', redirected: false });
  });

  test('back to a held page commits at once and supersedes a navigation on its way', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/b');
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await done;
    const next = router.navigate('/c');
    h.location.href = `${ORIGIN}/`;
    expect(await router.onPopState({ key: 'k1' })).toEqual({
      status: 'committed',
      url: '/',
      redirected: false,
    });
    expect(await next).toEqual({ status: 'aborted', reason: 'superseded' });
  });
});

describe('a prefetch settles when its entry does', () => {
  test('with the status of its entry: fresh when new, stale later, and at once for one in the cache', async () => {
    const h = harness();
    const router = start(h);
    const outcome = vi.fn();
    void router.prefetch('/b').then(outcome);
    await flush();
    expect(outcome).not.toHaveBeenCalled();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    await flush();
    expect(outcome).toHaveBeenCalledWith({ status: 'fresh' });
    h.clock.now += FRESH_WINDOW_MS;
    expect(await router.prefetch('/b')).toEqual({ status: 'stale' });
    expect(h.fetches).toHaveLength(1);
  });

  test('two prefetches of one URL settle together', async () => {
    const h = harness();
    const router = start(h);
    const both = Promise.all([router.prefetch('/b'), router.prefetch('/b', 'auto', 'viewport')]);
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/b', 'b')));
    expect(await both).toEqual([{ status: 'fresh' }, { status: 'fresh' }]);
  });

  test('failed when its request fails', async () => {
    const h = harness();
    const router = start(h);
    const done = router.prefetch('/b');
    await flush();
    h.fetches[0]!.reply.resolve(new Response('busy', { status: 503 }));
    expect(await done).toEqual({ status: 'failed' });
  });

  test('skipped when prefetching is off, for another origin, and when leaving the page drops it', async () => {
    const h = harness();
    const router = start(h);
    expect(await router.prefetch('https://elsewhere.example/b')).toEqual({ status: 'skipped' });
    h.effects.canPrefetch = () => false;
    expect(await router.prefetch('/b')).toEqual({ status: 'skipped' });
    delete h.effects.canPrefetch;
    const dropped = router.prefetch('/c');
    await flush();
    void router.navigate('/d'); // the page's own prefetches stop
    expect(await dropped).toEqual({ status: 'skipped' });
  });
});
