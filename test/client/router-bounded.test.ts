/**
 * A navigation never freezes and never leaks: its waits are bounded, its pending
 * state is visible and ends at commit or fallback, and a response it does not use is cancelled.
 * The router core on fake effects and fake timers; no React, no DOM.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { devtoolsSnapshot } from '../../client/devtools/snapshot';
import { PREFETCH_MAX_WAITING, PREFETCH_TIMEOUT_MS, ROUTE_SCRIPT_TIMEOUT_MS } from '../../shared/constants';
import type { Modules } from '../../client/router';
import { deferred } from '../helpers/deferred';
import {
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

/** A response whose body records whether the client cancelled it. */
function trackedResponse(
  status: number,
  type = 'application/json',
): { response: Response; cancelled: () => boolean } {
  let cancelled = false;
  const body = new ReadableStream({
    pull: () => new Promise(() => {}), // a server that never finishes sending
    cancel: () => void (cancelled = true),
  });
  return {
    response: new Response(body, { status, headers: { 'content-type': type } }),
    cancelled: () => cancelled,
  };
}

describe('the route-script budget counts from when the page data is in', () => {
  test('data that takes 5 s, then scripts within 3800 ms of it: a soft commit', async () => {
    const h = harness();
    h.script = deferred();
    const router = start(h);
    const done = router.navigate('/slow');
    await vi.advanceTimersByTimeAsync(5_000); // the server is slow: no budget runs meanwhile
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/slow', 'slow')));
    await vi.advanceTimersByTimeAsync(ROUTE_SCRIPT_TIMEOUT_MS - 1);
    h.script.resolve(undefined);
    expect(await done).toEqual({ status: 'committed', url: '/slow', redirected: false });
    expect(h.assigned).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('scripts still not in 3800 ms after the data: a hard navigation', async () => {
    const h = harness();
    h.script = deferred();
    const router = start(h);
    const done = router.navigate('/slow');
    await vi.advanceTimersByTimeAsync(5_000);
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/slow', 'slow')));
    await vi.advanceTimersByTimeAsync(ROUTE_SCRIPT_TIMEOUT_MS);
    expect(await done).toEqual({ status: 'hard', url: `${ORIGIN}/slow` });
  });
});

describe('waiting on a prefetch counts against the route-script budget, from the click', () => {
  test('a prefetch whose data never answers: a hard navigation to the target 3800 ms after the click', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/docs');
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/docs?_sy=%2F&_syp=auto']);
    const done = router.navigate('/docs');
    await vi.advanceTimersByTimeAsync(ROUTE_SCRIPT_TIMEOUT_MS - 1);
    expect(h.assigned).toEqual([]);
    expect(router.getSnapshot().pending).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(h.assigned).toEqual([`${ORIGIN}/docs`]);
    expect(router.getSnapshot()).toMatchObject({ commit: 0, pending: false });
  });

  test('a prefetch whose scripts never load: the same', async () => {
    const h = harness();
    const hung = new Promise<Modules>(() => {});
    h.effects.loadModules = () => hung;
    const router = start(h);
    void router.prefetch('/docs');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/docs', 'docs')));
    await flush();
    const done = router.navigate('/docs');
    await vi.advanceTimersByTimeAsync(ROUTE_SCRIPT_TIMEOUT_MS);
    await done;
    expect(h.assigned).toEqual([`${ORIGIN}/docs`]);
  });

  test('the budget counts from the click: a prefetch that answers late leaves the scripts only what is left', async () => {
    const h = harness();
    h.script = deferred();
    const router = start(h);
    void router.prefetch('/docs');
    await flush();
    const done = router.navigate('/docs');
    await vi.advanceTimersByTimeAsync(3_000);
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/docs', 'docs')));
    await vi.advanceTimersByTimeAsync(ROUTE_SCRIPT_TIMEOUT_MS - 3_000);
    await done;
    expect(h.assigned).toEqual([`${ORIGIN}/docs`]);
  });

  test('a prefetch that settles in time commits, and its timer is gone', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/docs');
    await flush();
    const done = router.navigate('/docs');
    await vi.advanceTimersByTimeAsync(1_000);
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/docs', 'docs')));
    await done;
    expect(router.getSnapshot()).toMatchObject({ href: '/docs', commit: 1, pending: false });
    await vi.advanceTimersByTimeAsync(ROUTE_SCRIPT_TIMEOUT_MS);
    expect(h.assigned).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('a prefetch that never answers gives up after its own deadline: aborted, failed, its place in the queue freed', async () => {
    const h = harness();
    const router = start(h, undefined, { concurrency: 1 });
    void router.prefetch('/a');
    void router.prefetch('/b');
    await flush();
    expect(devtoolsSnapshot(router).queue).toEqual({ running: ['/a'], waiting: ['/b'] });
    await vi.advanceTimersByTimeAsync(PREFETCH_TIMEOUT_MS);
    expect(h.fetches[0]!.signal.aborted).toBe(true);
    expect(devtoolsSnapshot(router).queue).toEqual({ running: ['/b'], waiting: [] });
    // The failure is kept until the entry expires: the link is not fetched again meanwhile.
    void router.prefetch('/a');
    await flush();
    expect(h.fetches.map((f) => f.url.split('?')[0])).toEqual(['/a', '/b']);
  });
});

describe('a bounded queue', () => {
  test('a prefetch dropped unstarted from a full queue leaves no entry: its link may ask again', async () => {
    const h = harness();
    const router = start(h, undefined, { concurrency: 1 });
    void router.prefetch('/p/1');
    await flush(); // /p/1 takes the one place, and never answers
    for (let i = 2; i <= PREFETCH_MAX_WAITING + 2; i++) void router.prefetch(`/p/${i}`);
    await flush();
    const keys = devtoolsSnapshot(router).entries.map((e) => e.key);
    expect(devtoolsSnapshot(router).queue.waiting).toHaveLength(PREFETCH_MAX_WAITING);
    expect(keys).not.toContain('/p/2'); // the oldest waiting one went
    expect(keys).toContain(`/p/${PREFETCH_MAX_WAITING + 2}`);
    void router.prefetch('/p/2');
    expect(devtoolsSnapshot(router).queue.waiting.at(-1)).toBe('/p/2');
  });
});

describe('responses the client does not use', () => {
  test('a failed prefetch has its body cancelled, and is not fetched again while its entry lives', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/lab/server-error');
    await flush();
    const failed = trackedResponse(500);
    h.fetches[0]!.reply.resolve(failed.response);
    await flush();
    expect(failed.cancelled()).toBe(true);
    for (let i = 0; i < 8; i++) void router.prefetch('/lab/server-error'); // the link scrolls in and out
    await flush();
    expect(h.fetches).toHaveLength(1);
    // A navigation treats the failure as nothing held and fetches for itself.
    const done = router.navigate('/lab/server-error');
    await flush();
    expect(h.fetches.map((f) => f.url)).toHaveLength(2);
    const again = trackedResponse(500);
    h.fetches[1]!.reply.resolve(again.response);
    await done;
    expect(again.cancelled()).toBe(true);
    expect(h.assigned).toEqual([`${ORIGIN}/lab/server-error`]);
  });

  test('an answer of the wrong type is cancelled too', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/x');
    const html = trackedResponse(200, 'text/html');
    h.fetches[0]!.reply.resolve(html.response);
    await done;
    expect(html.cancelled()).toBe(true);
  });

  test('the failure is forgotten when its entry expires', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/lab/server-error');
    await flush();
    h.fetches[0]!.reply.resolve(jsonResponse({ error: 'server', digest: 'd' }, 500));
    await flush();
    h.clock.now += 300_000;
    void router.prefetch('/lab/server-error');
    await flush();
    expect(h.fetches).toHaveLength(2);
  });
});

describe('the pending state', () => {
  test('pending from the click to the commit, not while the rest fills a loading state in', async () => {
    const h = harness();
    h.effects.hasLoadingState = (pathname) => pathname === '/slow';
    const router = start(h);
    const seen: boolean[] = [];
    router.subscribe(() => seen.push(router.getSnapshot().pending));
    const done = router.navigate('/slow');
    expect(router.getSnapshot().pending).toBe(true);
    h.fetches[0]!.reply.resolve(jsonResponse({ ...prefetchAnswer('/slow', 'slow', 1) }));
    await flush();
    expect(router.getSnapshot()).toMatchObject({ commit: 1, pending: false });
    expect(h.fetches.map((f) => f.url)).toEqual(['/slow?_sy=%2F&_syp=auto', '/slow?_sy=&_syp=rest']);
    h.fetches[1]!.reply.resolve(jsonResponse(prefetchAnswer('/slow', 'slow')));
    await done; // settled at the commit of the loading state
    await flush(); // the rest fills it in after
    expect(seen).toEqual([true, false, false]);
  });

  test('a pending update changes nothing the view applies once per commit', async () => {
    const h = harness();
    const router = start(h);
    const first = router.navigate('/a');
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/a', 'a')));
    await first;
    const committed = router.getSnapshot();
    void router.navigate('/b');
    const pending = router.getSnapshot();
    expect(pending.pending).toBe(true);
    expect(pending.commit).toBe(committed.commit);
    expect(pending.scroll).toBe(committed.scroll);
  });

  test('a fallback ends the pending state', async () => {
    const h = harness();
    const router = start(h);
    const done = router.navigate('/x');
    h.fetches[0]!.reply.resolve(new Response('', { status: 502 }));
    await done;
    expect(router.getSnapshot().pending).toBe(false);
    expect(h.assigned).toEqual([`${ORIGIN}/x`]);
  });
});

describe('a navigation with nothing prefetched', () => {
  test('shows the loading state of the target after one answer, then fetches the rest behind it', async () => {
    const h = harness();
    h.effects.hasLoadingState = (pathname) => pathname === '/slow';
    const router = start(h);
    const done = router.navigate('/slow');
    expect(h.fetches.map((f) => f.url)).toEqual(['/slow?_sy=%2F&_syp=auto']);
    h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/slow', 'slow', 1)));
    await flush();
    expect(router.getSnapshot().state.pendingAt).toBe(1);
    h.fetches[1]!.reply.resolve(jsonResponse(prefetchAnswer('/slow', 'slow')));
    await done; // settled at the commit of the loading state
    await flush(); // the rest fills it in after
    expect(router.getSnapshot().state.pendingAt).toBeUndefined();
    expect(router.getSnapshot().state.segments[1]!.pageData).toEqual({ page: 'slow' });
  });

  test('a route with no loading state is fetched whole, in one request', async () => {
    const h = harness();
    h.effects.hasLoadingState = () => false;
    const router = start(h);
    const done = router.navigate('/b');
    expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=%2F']);
    h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
    await done;
    expect(h.fetches).toHaveLength(1);
  });
});
