/**
 * What prefetching costs the user's link: held layout data is not sent again, links only in view
 * spend from a byte budget per page view, intent goes first and past the budget, and a page the
 * user leaves stops prefetching. The router core on fake effects; no timers, no sleeps.
 */
import { describe, expect, test } from 'vitest';
import { devtoolsSnapshot } from '../../client/devtools/snapshot';
import { prefetchAllowed } from '../../client/browser-effects';
import { PREFETCH_BUDGET_BYTES, PREFETCH_FIRST_ESTIMATE_BYTES } from '../../shared/constants';
import { createPrefetchBudget } from '../../shared/prefetch-budget';
import { deferred } from '../helpers/deferred';
import {
  answer,
  flush,
  harness,
  pageState,
  prefetchAnswer,
  start,
  type Harness,
} from '../helpers/router-harness';

/** A page-data response the way the server sends it: with its size on the wire. */
function sized(body: unknown, bytes: number): Response {
  return new Response(JSON.stringify(body), {
    headers: { 'content-type': 'application/json', 'content-length': String(bytes) },
  });
}

/** The header block of `sized(…, bytes)` as HTTP/1.1 sends it, counted by hand. */
const headerBytes = (bytes: number) =>
  'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: \r\n\r\n'.length +
  String(bytes).length;

/** A response whose headers and body make `wire` bytes on the wire. */
function onWire(body: unknown, wire: number): Response {
  let length = wire - headerBytes(wire);
  if (length + headerBytes(length) !== wire) length++; // one digit fewer in the length
  return sized(body, length);
}

/** Lets responses be read: a body is read across a few turns of the event loop. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await flush();
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

const paths = (h: Harness) => h.fetches.map((f) => f.url.split('?')[0]);

describe('a prefetch carries the held layout keys', () => {
  test('a prefetch request carries the held layout keys: the server leaves that data out, and the entry takes it from the page', async () => {
    const h = harness();
    const router = start(h, pageState('/', 'feed', { user: 'grace' }));
    void router.prefetch('/b', 'auto', 'viewport');
    await flush();
    // `_sy` names the page it is made from: the server knows the layouts (and params) it holds.
    expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=%2F&_syp=auto']);
    h.fetches[0]!.reply.resolve(sized(answer('/b', 'b'), 300));
    await flush();
    expect(devtoolsSnapshot(router).entries.map((e) => [e.key, e.status])).toEqual([['/b', 'fresh']]);
    // Used from here, the entry renders at once with the layout data the page held.
    await router.navigate('/b');
    expect(h.fetches).toHaveLength(1);
    expect(router.getSnapshot().state.segments[0]!.layoutData).toEqual({ user: 'grace' });
    expect(router.getSnapshot().state.segments[0]!.reuseLayoutData).toBeUndefined();
  });

  test('a page that does not hold all its data (waiting on what is behind its loading state) asks for everything', async () => {
    const h = harness();
    const router = start(h, { ...pageState('/', 'feed'), pendingAt: 1 });
    void router.prefetch('/b', 'auto', 'viewport');
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=&_syp=auto']);
  });

  test('a trimmed answer to a prefetch made from nothing held fails the entry, and the click fetches for itself', async () => {
    const h = harness();
    const router = start(h, { ...pageState('/', 'feed'), notFound: 'not-found.tsx' });
    void router.prefetch('/b');
    await flush();
    h.fetches[0]!.reply.resolve(sized(answer('/b', 'b'), 300));
    await flush();
    expect(devtoolsSnapshot(router).entries.map((e) => e.data)).toEqual(['failed']);
  });
});

describe('layout data that may be out of date is not reused', () => {
  /** The server: it leaves out the root layout's data when the request names a page and is not asked whole. */
  const serve = (url: string, page: string, layoutData: unknown) => {
    const params = new URL(url, 'https://app.example').searchParams;
    const trimmed = params.get('_sy') !== '' && params.get('_syw') === null;
    return sized(
      trimmed ? answer(url.split('?')[0]!, page) : { ...pageState(url, page, layoutData), status: 200 },
      300,
    );
  };

  test('a prefetch made while a layout revalidation is on its way asks whole, so its entry shows the new layout data', async () => {
    const h = harness();
    const router = start(h, pageState('/', 'feed', { user: 'signed in' }));
    const revalidating = router.revalidate([{ path: '/', type: 'layout' }]);
    void router.prefetch('/b', 'auto', 'intent'); // the pointer rests on a link meanwhile
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/?_sy=', '/b?_sy=&_syp=auto']);
    h.fetches[1]!.reply.resolve(serve(h.fetches[1]!.url, 'b', { user: 'signed out' }));
    h.fetches[0]!.reply.resolve(serve(h.fetches[0]!.url, 'feed', { user: 'signed out' }));
    await revalidating;
    await settle();
    await router.navigate('/b');
    expect(h.fetches).toHaveLength(2); // the entry served the click
    expect(router.getSnapshot().state.segments[0]!.layoutData).toEqual({ user: 'signed out' });
  });

  test('a click while a revalidation is on its way asks for every layout, and still says where the user is', async () => {
    const h = harness();
    const router = start(h, pageState('/', 'feed', { user: 'signed in' }));
    void router.revalidate([{ path: '/', type: 'layout' }]);
    const done = router.navigate('/b');
    await flush();
    // `_sy` names the page (an interception depends on it); `_syw` says nothing held is trusted.
    expect(h.fetches.map((f) => f.url)).toEqual(['/?_sy=', '/b?_sy=%2F&_syw=1']);
    h.fetches[1]!.reply.resolve(serve(h.fetches[1]!.url, 'b', { user: 'signed out' }));
    await done;
    expect(router.getSnapshot().state.segments[0]!.layoutData).toEqual({ user: 'signed out' });
    // Once a page from the server is on screen, its layout data is trusted again.
    void router.prefetch('/c', 'auto', 'intent');
    await flush();
    expect(h.fetches.at(-1)!.url).toBe('/c?_sy=%2Fb&_syp=auto');
  });

  test('revalidating a page alone keeps the layout data reused', async () => {
    const h = harness();
    const router = start(h);
    void router.revalidate([{ path: '/', type: 'page' }]);
    void router.prefetch('/b', 'auto', 'intent');
    await flush();
    expect(h.fetches.map((f) => f.url)).toEqual(['/?_sy=', '/b?_sy=%2F&_syp=auto']);
  });
});

describe('the byte budget of a page view', () => {
  test('links in view prefetch until the budget is spent; the rest wait for room, and go as it frees', async () => {
    const h = harness();
    const router = start(h);
    for (let i = 1; i <= 14; i++) void router.prefetch(`/p/${i}`, 'auto', 'viewport');
    await flush();
    // Before anything is measured a prefetch is guessed at 8 KiB: six fit in 48 KiB (five run).
    const { running, waiting } = devtoolsSnapshot(router).queue;
    expect([...running, ...waiting]).toEqual(['/p/1', '/p/2', '/p/3', '/p/4', '/p/5', '/p/6']);
    // Each comes back at 4 KiB with its headers: room for more, taken in order by the links that waited.
    let answered = 0;
    while (answered < h.fetches.length) {
      for (const fetch of h.fetches.slice(answered)) {
        const path = fetch.url.split('?')[0]!;
        fetch.reply.resolve(onWire(prefetchAnswer(path, 'p'), PREFETCH_BUDGET_BYTES / 12));
        answered++;
      }
      await settle();
    }
    expect(paths(h)).toEqual(Array.from({ length: 12 }, (_, i) => `/p/${i + 1}`));
    void router.prefetch('/p/15', 'auto', 'viewport');
    await flush();
    expect(paths(h)).toHaveLength(12); // the budget is spent: /p/13 to /p/15 are never fetched
    expect(devtoolsSnapshot(router).budget).toEqual({
      limitBytes: PREFETCH_BUDGET_BYTES,
      spentBytes: PREFETCH_BUDGET_BYTES,
      inFlight: 0,
      deferred: ['/p/13', '/p/14', '/p/15'],
    });
  });

  test('a prefetch costs what crossed the wire: its headers as they went, and its body as the browser measured it, else its content-length, else its length', async () => {
    const h = harness();
    const measured = new Map([['/b', 1000]]);
    h.effects.bodyBytesOnWire = (url) => measured.get(url.split('?')[0]!);
    const router = start(h);
    for (const path of ['/b', '/c', '/d']) void router.prefetch(path, 'auto', 'viewport');
    await flush();
    const body = (path: string) => JSON.stringify(prefetchAnswer(path, 'p'));
    const spentAfter = async (i: number, response: Response) => {
      h.fetches[i]!.reply.resolve(response);
      await settle();
      return devtoolsSnapshot(router).budget.spentBytes;
    };
    // The browser's figure wins over the content-length the answer claims.
    const b = await spentAfter(0, sized(prefetchAnswer('/b', 'p'), 5000));
    expect(b).toBe(headerBytes(5000) + 1000);
    const c = await spentAfter(1, sized(prefetchAnswer('/c', 'p'), 2000));
    expect(c - b).toBe(headerBytes(2000) + 2000);
    // Through a proxy that drops the length: the body as read, and only the headers it has.
    const plain = new Response(body('/d'), { headers: { 'content-type': 'application/json' } });
    const d = await spentAfter(2, plain);
    expect(d - c).toBe(
      'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n'.length + body('/d').length,
    );
  });

  test('intent is not held to the budget, and goes before every link that is only in view', async () => {
    const h = harness();
    const router = start(h, pageState('/', 'feed'), { concurrency: 1 });
    for (let i = 1; i <= 3; i++) void router.prefetch(`/p/${i}`, 'auto', 'viewport');
    await flush(); // /p/1 takes the one place
    void router.prefetch('/p/3', 'auto', 'intent'); // the pointer moves onto a link that waits
    void router.prefetch('/hover', 'auto', 'intent');
    await flush();
    expect(devtoolsSnapshot(router).queue).toEqual({
      running: ['/p/1'],
      waiting: ['/p/3', '/hover', '/p/2'],
    });
    h.fetches[0]!.reply.resolve(sized(prefetchAnswer('/p/1', 'p'), 60_000)); // the whole budget and more
    await flush();
    void router.prefetch('/p/9', 'auto', 'viewport');
    void router.prefetch('/q', 'auto', 'intent');
    await flush();
    expect(devtoolsSnapshot(router).queue.waiting).toEqual(['/hover', '/q', '/p/2']);
    expect(devtoolsSnapshot(router).entries.map((e) => e.key)).not.toContain('/p/9');
  });

  test('a full prefetch from a link in view that takes the place of a hovered one keeps its place in the intent lane', async () => {
    const h = harness();
    const router = start(h, pageState('/', 'feed'), { concurrency: 1 });
    void router.prefetch('/a', 'auto', 'viewport');
    await flush(); // /a takes the one place
    void router.prefetch('/c', 'auto', 'viewport');
    void router.prefetch('/b', 'auto', 'intent'); // the pointer is on a link to /b
    await flush();
    expect(devtoolsSnapshot(router).queue).toEqual({ running: ['/a'], waiting: ['/b', '/c'] });
    void router.prefetch('/b', 'full', 'viewport'); // another link to /b, which wants all its data
    await flush();
    expect(devtoolsSnapshot(router).queue).toEqual({ running: ['/a'], waiting: ['/b', '/c'] });
    expect(devtoolsSnapshot(router).entries.find((e) => e.key === '/b')).toMatchObject({ kind: 'full' });
  });

  test('a prefetch cut short by a refresh counts its estimate; one that never started, nothing', async () => {
    const h = harness();
    const router = start(h, pageState('/', 'feed'), { concurrency: 1 });
    void router.prefetch('/a', 'auto', 'viewport');
    void router.prefetch('/b', 'auto', 'viewport');
    await flush();
    expect(devtoolsSnapshot(router).queue).toEqual({ running: ['/a'], waiting: ['/b'] });
    void router.refresh(); // the same page view: what was spent on it stays spent
    await settle();
    expect(h.fetches[0]!.signal.aborted).toBe(true);
    expect(devtoolsSnapshot(router).budget).toMatchObject({
      spentBytes: PREFETCH_FIRST_ESTIMATE_BYTES,
      inFlight: 0,
    });
  });

  test('links held back by the budget do not go once the user turns Save-Data on', async () => {
    const h = harness();
    let saveData = false;
    h.effects.canPrefetch = () => !saveData;
    const router = start(h);
    for (let i = 1; i <= 8; i++) void router.prefetch(`/p/${i}`, 'auto', 'viewport');
    await flush();
    expect(devtoolsSnapshot(router).budget.deferred).toEqual(['/p/7', '/p/8']);
    saveData = true;
    h.fetches[0]!.reply.resolve(sized(prefetchAnswer('/p/1', 'p'), 1024));
    await settle();
    // /p/6 was already in the queue; /p/7 and /p/8 were only held back, and go nowhere.
    expect(paths(h)).toEqual(['/p/1', '/p/2', '/p/3', '/p/4', '/p/5', '/p/6']);
    const { budget, queue, entries } = devtoolsSnapshot(router);
    expect(budget.deferred).toEqual([]);
    expect(queue.waiting).toEqual([]);
    expect(entries.map((e) => e.key)).not.toContain('/p/7');
  });

  test('a link held back by the budget and then asked for in full goes in full when room frees', async () => {
    const h = harness();
    const router = start(h);
    for (let i = 1; i <= 7; i++) void router.prefetch(`/p/${i}`, 'auto', 'viewport');
    await flush();
    void router.prefetch('/p/7', 'full', 'viewport'); // another link to it, which wants all its data
    await flush();
    expect(devtoolsSnapshot(router).budget.deferred).toEqual(['/p/7']);
    h.fetches[0]!.reply.resolve(sized(prefetchAnswer('/p/1', 'p'), 1024));
    await settle();
    const { queue, entries } = devtoolsSnapshot(router);
    expect(queue.waiting).toEqual(['/p/7']);
    expect(entries.find((e) => e.key === '/p/7')).toMatchObject({ kind: 'full' });
  });

  test('a new page view has a budget of its own', async () => {
    const h = harness();
    const router = start(h);
    void router.prefetch('/b', 'auto', 'viewport');
    await flush();
    // 30 KiB: another as large would not fit in what is left of 48.
    h.fetches[0]!.reply.resolve(onWire(prefetchAnswer('/b', 'b'), 30 * 1024));
    await flush();
    void router.prefetch('/c', 'auto', 'viewport');
    await flush();
    expect(paths(h)).toEqual(['/b']);
    await router.navigate('/b');
    void router.prefetch('/c', 'auto', 'viewport');
    await flush();
    expect(paths(h)).toEqual(['/b', '/c']);
  });

  test("with the budget spent, a full prefetch still takes the place of an auto one waiting: it spends that one's share", async () => {
    const h = harness();
    const router = start(h);
    const asked = Array.from({ length: 6 }, (_, i) => router.prefetch(`/p/${i + 1}`, 'auto', 'viewport'));
    await flush();
    expect(devtoolsSnapshot(router).queue.waiting).toEqual(['/p/6']); // six fit the budget, five run
    const full = router.prefetch('/p/6', 'full', 'viewport');
    await flush();
    const { queue, budget, entries } = devtoolsSnapshot(router);
    expect(queue.waiting).toEqual(['/p/6']);
    expect(budget.deferred).toEqual([]);
    expect(entries.find((e) => e.key === '/p/6')).toMatchObject({ kind: 'full' });
    h.fetches[0]!.reply.resolve(onWire(prefetchAnswer('/p/1', 'p'), 1000));
    await settle();
    expect(h.fetches.map((f) => f.url)).toContain('/p/6?_sy=%2F&_syp=full');
    h.fetches.at(-1)!.reply.resolve(onWire(prefetchAnswer('/p/6', 'p'), 1000));
    await settle();
    // Whoever asked for the auto prefetch hears how the full one that took its place went.
    expect(await asked[5]).toEqual({ status: 'fresh' });
    expect(await full).toEqual({ status: 'fresh' });
  });
});

describe('the page left behind stops prefetching', () => {
  test("a left page's queue is emptied: waiting prefetches never start, running ones are aborted, and their entries go", async () => {
    const h = harness();
    const router = start(h, pageState('/', 'feed'), { concurrency: 2 });
    for (const path of ['/a', '/b', '/c', '/d']) void router.prefetch(path, 'auto', 'viewport');
    await flush();
    expect(devtoolsSnapshot(router).queue).toEqual({ running: ['/a', '/b'], waiting: ['/c', '/d'] });
    h.location.href = 'https://app.example/older';
    const back = router.onPopState({ key: 'not-held' });
    await flush();
    expect(devtoolsSnapshot(router).queue).toEqual({ running: [], waiting: [] });
    expect(h.fetches.slice(0, 2).every((f) => f.signal.aborted)).toBe(true);
    expect(devtoolsSnapshot(router).entries).toEqual([]); // nothing is known of them: not failures
    h.fetches[2]!.reply.resolve(sized(answer('/older', 'older'), 300));
    await back;
    expect(paths(h)).toEqual(['/a', '/b', '/older']); // /c and /d never went
    // Links of the new page prefetch again.
    void router.prefetch('/c', 'auto', 'viewport');
    await flush();
    expect(paths(h)).toEqual(['/a', '/b', '/older', '/c']);
  });

  test('a left prefetch whose scripts hang gives its place up at once, not after its 15 s', async () => {
    const h = harness();
    const router = start(h, pageState('/', 'feed'), { concurrency: 1 });
    h.script = deferred<unknown>(); // route scripts that never come
    void router.prefetch('/a', 'auto', 'viewport');
    await flush();
    h.fetches[0]!.reply.resolve(sized(answer('/a', 'a'), 300));
    await settle();
    expect(devtoolsSnapshot(router).queue.running).toEqual(['/a']); // its data is in; its scripts hang
    h.location.href = 'https://app.example/older';
    const back = router.onPopState({ key: 'not-held' });
    await settle();
    // The navigation ends (in a full page load, as its scripts hang too): the queue may run again.
    h.fetches[1]!.reply.resolve(new Response('down', { status: 503 }));
    expect((await back).status).toBe('hard');
    void router.prefetch('/c', 'auto', 'viewport');
    await settle();
    expect(paths(h)).toEqual(['/a', '/older', '/c']);
  });

  test('what the old page prefetches while a navigation is on its way waits, and stops when the new page commits', async () => {
    const h = harness();
    const router = start(h, pageState('/', 'feed'), { concurrency: 2 });
    const done = router.navigate('/b');
    await flush();
    // The old page is still on screen: a link scrolls into view, the pointer rests on another.
    void router.prefetch('/c', 'auto', 'viewport');
    void router.prefetch('/d', 'auto', 'intent');
    void router.prefetch('/e', 'auto', 'viewport');
    await settle();
    // The navigation has the link to itself: nothing starts beside its request.
    expect(paths(h)).toEqual(['/b']);
    expect(devtoolsSnapshot(router).queue).toEqual({ running: [], waiting: ['/d', '/c', '/e'] });
    h.fetches[0]!.reply.resolve(sized(answer('/b', 'b'), 300));
    await done;
    expect(router.getSnapshot().href).toBe('/b');
    expect(devtoolsSnapshot(router).queue).toEqual({ running: [], waiting: [] });
    expect(devtoolsSnapshot(router).entries.map((e) => e.key)).toEqual(['/b']);
    await settle();
    expect(paths(h)).toEqual(['/b']); // none of them ever went
    // The navigation is over: the new page's links prefetch at once.
    void router.prefetch('/f', 'auto', 'viewport');
    await settle();
    expect(paths(h)).toEqual(['/b', '/f']);
  });

  test('a click while prefetches run and wait: they stop, and none starts until the last navigation ends, even one that replaced another', async () => {
    const h = harness();
    const router = start(h, pageState('/', 'feed'), { concurrency: 2 });
    for (const path of ['/a', '/b', '/c']) void router.prefetch(path, 'auto', 'viewport');
    await flush();
    const first = router.navigate('/x');
    await flush();
    expect(h.fetches.slice(0, 2).every((f) => f.signal.aborted)).toBe(true);
    void router.prefetch('/d', 'auto', 'intent');
    const second = router.navigate('/y'); // the user clicks again before /x came
    await flush();
    expect((await first).status).toBe('aborted');
    void router.prefetch('/e', 'auto', 'intent');
    await settle();
    // /x's end resumed its pause of the queue; /y's still stands.
    expect(paths(h)).toEqual(['/a', '/b', '/x', '/y']);
    h.fetches[3]!.reply.resolve(sized(answer('/y', 'y'), 300));
    expect((await second).status).toBe('committed');
    void router.prefetch('/f', 'auto', 'viewport');
    await settle();
    expect(paths(h)).toEqual(['/a', '/b', '/x', '/y', '/f']);
  });

  test('the page the user goes to keeps its prefetch, and the navigation uses it', async () => {
    const h = harness();
    const router = start(h, pageState('/', 'feed'), { concurrency: 2 });
    for (const path of ['/a', '/b', '/c']) void router.prefetch(path, 'auto', 'viewport');
    await flush();
    const done = router.navigate('/b');
    await flush();
    expect(h.fetches[0]!.signal.aborted).toBe(true);
    expect(h.fetches[1]!.signal.aborted).toBe(false);
    h.fetches[1]!.reply.resolve(sized(answer('/b', 'b'), 300));
    await done;
    expect(router.getSnapshot().href).toBe('/b');
    expect(paths(h)).toEqual(['/a', '/b']);
  });
});

describe('a navigation that ends on the page it left', () => {
  /** Seven links in view on `/`: two prefetches run, four wait, and one the budget holds back. */
  async function sevenLinks() {
    const h = harness();
    h.effects.hasLoadingState = () => false;
    const router = start(h, pageState('/', 'feed'), { concurrency: 2 });
    for (let i = 1; i <= 7; i++) void router.prefetch(`/p/${i}`, 'auto', 'viewport');
    await flush();
    const before = devtoolsSnapshot(router);
    expect(before.queue).toEqual({ running: ['/p/1', '/p/2'], waiting: ['/p/3', '/p/4', '/p/5', '/p/6'] });
    expect(before.budget.deferred).toEqual(['/p/7']);
    return { h, router };
  }

  test("a click cut short by a hash link on the page: the page's prefetches go again", async () => {
    const { h, router } = await sevenLinks();
    const click = router.navigate('/x');
    await flush();
    expect(devtoolsSnapshot(router).queue).toEqual({ running: [], waiting: [] });
    await router.navigate('/#part');
    expect((await click).status).toBe('aborted');
    await settle();
    const again = devtoolsSnapshot(router);
    expect(again.queue).toEqual({ running: ['/p/1', '/p/2'], waiting: ['/p/3', '/p/4', '/p/5', '/p/6'] });
    expect(again.budget.deferred).toEqual(['/p/7']);
    expect(paths(h)).toEqual(['/p/1', '/p/2', '/x', '/p/1', '/p/2']);
  });

  test('a link hovered while its prefetch waited goes again in the intent lane', async () => {
    const { router } = await sevenLinks();
    void router.prefetch('/p/5', 'auto', 'intent');
    await flush();
    expect(devtoolsSnapshot(router).queue.waiting).toEqual(['/p/5', '/p/3', '/p/4', '/p/6']);
    const click = router.navigate('/x');
    await flush();
    await router.navigate('/#part');
    expect((await click).status).toBe('aborted');
    await settle();
    // The hovered link is the likelier click: it goes first again.
    expect(devtoolsSnapshot(router).queue).toEqual({
      running: ['/p/5', '/p/1'],
      waiting: ['/p/2', '/p/3', '/p/4', '/p/6'],
    });
  });

  test('a full prefetch waiting on the auto one running for its URL goes again as full', async () => {
    const { h, router } = await sevenLinks();
    const full = router.prefetch('/p/1', 'full', 'intent');
    await flush();
    const click = router.navigate('/x');
    await flush();
    await router.navigate('/#part');
    expect((await click).status).toBe('aborted');
    expect(await full).toEqual({ status: 'skipped' }); // cut short with the auto data it waited on
    await settle();
    expect(devtoolsSnapshot(router).entries.find((e) => e.key === '/p/1')).toMatchObject({ kind: 'full' });
    expect(h.fetches.map((f) => f.url).filter((url) => url.startsWith('/p/1?'))).toEqual([
      '/p/1?_sy=%2F&_syp=auto',
      '/p/1?_sy=%2F&_syp=full',
    ]);
  });

  test('cut short once the user turned Save-Data on: none goes again', async () => {
    const { h, router } = await sevenLinks();
    const click = router.navigate('/x');
    h.effects.canPrefetch = () => false;
    await router.navigate('/#part');
    expect((await click).status).toBe('aborted');
    await settle();
    expect(devtoolsSnapshot(router).queue).toEqual({ running: [], waiting: [] });
    expect(paths(h)).toEqual(['/p/1', '/p/2', '/x']);
  });

  test('a click whose page redirects back to the page shown: the same', async () => {
    const { h, router } = await sevenLinks();
    const click = router.navigate('/x');
    await flush();
    h.fetches[2]!.reply.resolve(
      new Response(
        JSON.stringify({
          buildId: 'build-1',
          url: '/x',
          status: 200,
          redirect: { location: '/', status: 307 },
        }),
        {
          headers: { 'content-type': 'application/json' },
        },
      ),
    );
    expect(await click).toMatchObject({ status: 'committed', url: '/', redirected: true });
    await settle();
    expect(devtoolsSnapshot(router).queue.running).toEqual(['/p/1', '/p/2']);
  });

  test('a click whose full page load is refused as a loop, and a back between two entries of the page: the same', async () => {
    const { h, router } = await sevenLinks();
    h.stored.value = JSON.stringify({ href: 'https://app.example/x', at: h.clock.now });
    const click = router.navigate('/x');
    await flush();
    h.fetches[2]!.reply.resolve(new Response('down', { status: 503 }));
    expect(await click).toEqual({ status: 'aborted', reason: 'failed' });
    await settle();
    expect(devtoolsSnapshot(router).queue.running).toEqual(['/p/1', '/p/2']);
    // Back from /#part to /: the page stays.
    const homeKey = h.history[0]!.state.key;
    await router.navigate('/#part');
    await settle();
    h.location.href = 'https://app.example/';
    expect(await router.onPopState({ key: homeKey, index: 0 })).toMatchObject({
      status: 'committed',
      url: '/',
    });
    await settle();
    expect(devtoolsSnapshot(router).queue).toEqual({
      running: ['/p/1', '/p/2'],
      waiting: ['/p/3', '/p/4', '/p/5', '/p/6'],
    });
    expect(devtoolsSnapshot(router).budget.deferred).toEqual(['/p/7']);
  });

  test('two clicks, the second cut short by a hash link: what the first cancelled goes again, once', async () => {
    const { h, router } = await sevenLinks();
    const first = router.navigate('/x');
    const second = router.navigate('/y');
    await router.navigate('/#part');
    expect([(await first).status, (await second).status]).toEqual(['aborted', 'aborted']);
    await settle();
    expect(devtoolsSnapshot(router).queue).toEqual({
      running: ['/p/1', '/p/2'],
      waiting: ['/p/3', '/p/4', '/p/5', '/p/6'],
    });
    expect(paths(h)).toEqual(['/p/1', '/p/2', '/x', '/y', '/p/1', '/p/2']);
  });

  test('a click that lands, or a back to another page held, leaves them gone', async () => {
    const { h, router } = await sevenLinks();
    const homeKey = h.history[0]!.state.key;
    const click = router.navigate('/x');
    h.fetches[2]!.reply.resolve(sized(answer('/x', 'x'), 300));
    await click;
    await settle();
    expect(devtoolsSnapshot(router).queue).toEqual({ running: [], waiting: [] });
    void router.prefetch('/q', 'auto', 'viewport');
    await flush();
    h.location.href = 'https://app.example/';
    expect(await router.onPopState({ key: homeKey, index: 0 })).toMatchObject({
      status: 'committed',
      url: '/',
    });
    await settle();
    expect(devtoolsSnapshot(router).queue).toEqual({ running: [], waiting: [] });
    expect(devtoolsSnapshot(router).budget.deferred).toEqual([]);
    expect(paths(h)).toEqual(['/p/1', '/p/2', '/x', '/q']);
  });
});

describe('the connection', () => {
  test('Save-Data: no prefetch at all; 2G or slower: only on intent or when the app asks', () => {
    for (const trigger of ['viewport', 'intent', 'api'] as const) {
      expect(prefetchAllowed(trigger, { saveData: true, effectiveType: '4g' })).toBe(false);
      expect(prefetchAllowed(trigger, undefined)).toBe(true);
      expect(prefetchAllowed(trigger, { effectiveType: '3g' })).toBe(true);
    }
    for (const slow of ['2g', 'slow-2g']) {
      expect(prefetchAllowed('viewport', { effectiveType: slow })).toBe(false);
      expect(prefetchAllowed('intent', { effectiveType: slow })).toBe(true);
      expect(prefetchAllowed('api', { effectiveType: slow })).toBe(true);
    }
  });
});

describe('the budget on its own', () => {
  test('a prefetch dropped before it started costs nothing; one cut short costs the estimate; a page left counts nowhere', () => {
    const budget = createPrefetchBudget(90, 10);
    const never = budget.open();
    never.release();
    expect(budget.spent).toBe(0);
    const cut = budget.open();
    cut.cancel();
    expect(budget.spent).toBe(10);
    const measured = budget.open();
    measured.settle(30); // the estimate is now what was measured: 30
    expect(budget.spent).toBe(40);
    expect(budget.fits()).toBe(true); // 40 + 30 ≤ 90
    const open = budget.open();
    expect(budget.fits()).toBe(false); // 40 + 2 × 30 > 90
    budget.newPageView();
    open.settle(50);
    expect(budget.spent).toBe(0);
    expect(budget.inFlight).toBe(0);
  });

  test('the estimate is the largest of the latest eight answers: a small one does not let one more start than fits, and a huge one ages out', () => {
    const budget = createPrefetchBudget(90, 10);
    budget.open().settle(30);
    budget.open().settle(5); // a redirect, a short page: the pages to come are still ~30
    expect(budget.spent).toBe(35);
    budget.open();
    // 35 + 2 × 30 > 90; with the mean (17.5) as the guess, a second one would have started.
    expect(budget.fits()).toBe(false);
    const threeOpen = () => {
      budget.newPageView();
      budget.open();
      budget.open();
      budget.open();
      return budget.fits(); // 4 × the estimate ≤ 90?
    };
    // Six more small answers: the 30 is among the latest eight still.
    for (let i = 0; i < 6; i++) budget.open().settle(5);
    expect(threeOpen()).toBe(false);
    // One more, and the guess is 5.
    budget.open().settle(5);
    expect(threeOpen()).toBe(true);
  });
});
