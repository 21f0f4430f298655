/**
 * Navigations that overlap: a page left before its loading state was filled in, a hash moved
 * while the page fills in, a click while a back is on its way. History keeps each entry's own
 * URL, and nothing is left half-loaded for good.
 */
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import {
  answer,
  BUILD,
  flush,
  harness,
  jsonResponse,
  ORIGIN,
  prefetchAnswer,
  start,
} from '../helpers/router-harness';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

/** On `/slow`, whose loading state has committed; the rest of its data is still on its way. */
async function onLoadingState() {
  const h = harness();
  h.effects.hasLoadingState = (path) => path === '/slow';
  const router = start(h);
  const slow = router.navigate('/slow');
  h.fetches[0]!.reply.resolve(jsonResponse(prefetchAnswer('/slow', 'slow', 1)));
  await slow;
  await flush();
  return { h, router };
}

test('back to a page left while its loading state showed fetches it: the skeleton is not kept', async () => {
  const { h, router } = await onLoadingState();
  expect(router.getSnapshot().state.pendingAt).toBe(1);
  const slowKey = h.history.at(-1)!.state.key;
  // Gone elsewhere before the rest came.
  const away = router.navigate('/c');
  h.fetches.at(-1)!.reply.resolve(jsonResponse(answer('/c', 'c')));
  await away;
  const asked = h.fetches.length;

  h.location.href = `${ORIGIN}/slow`;
  const back = router.onPopState({ key: slowKey, index: 1 });
  expect(h.fetches.slice(asked).map((f) => f.url)).toEqual(['/slow?_sy=%2Fc']);
  h.fetches.at(-1)!.reply.resolve(jsonResponse(answer('/slow', 'slow')));
  expect(await back).toMatchObject({ status: 'committed', url: '/slow' });
  expect(router.getSnapshot().state.pendingAt).toBeUndefined();
});

test('a hash moved while the page fills in its loading state leaves the filling on', async () => {
  const { h, router } = await onLoadingState();
  const rest = h.fetches.at(-1)!;
  expect(rest.url).toBe('/slow?_sy=&_syp=rest');
  await router.navigate('/slow#part');
  rest.reply.resolve(jsonResponse(answer('/slow', 'slow')));
  await flush();
  expect(router.getSnapshot()).toMatchObject({ href: '/slow#part' });
  expect(router.getSnapshot().state.pendingAt).toBeUndefined();
});

test('a click while a back is on its way leaves the entry arrived at with its own URL', async () => {
  const h = harness();
  const router = start(h);
  // The browser goes back to an entry from before a reload: /old, not held.
  h.location.href = `${ORIGIN}/old`;
  const back = router.onPopState({ key: 'old-key', index: 0 });
  expect(h.fetches[0]!.url).toBe('/old?_sy=%2F');
  // Before /old arrives, a link on the page still on screen.
  const click = router.navigate('/c');
  h.fetches.at(-1)!.reply.resolve(jsonResponse(answer('/c', 'c')));
  await Promise.all([back, click]);
  const written = h.history.filter((e) => e.state.key === 'old-key').map((e) => `${e.op} ${e.href}`);
  expect(written).toEqual(['replace /old']);
  expect(h.history.at(-1)).toMatchObject({ op: 'push', href: '/c' });
});

test('a revalidation while a click is on its way lets the click land, then refreshes the page it landed on', async () => {
  const h = harness();
  const router = start(h);
  const click = router.navigate('/b');
  const revalidated = router.revalidate([{ path: '/b', type: 'page' }]);
  expect(h.fetches[0]!.signal.aborted).toBe(false);
  h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
  expect(await click).toEqual({ status: 'committed', url: '/b', redirected: false });
  await flush();
  expect(h.fetches.map((f) => f.url)).toEqual(['/b?_sy=%2F', '/b?_sy=']);
  const changed = answer('/b', 'b');
  h.fetches[1]!.reply.resolve(
    jsonResponse({
      ...changed,
      segments: [changed.segments[0], { ...changed.segments[1], pageData: { likes: 1 } }],
    }),
  );
  expect(await revalidated).toEqual({ status: 'committed', url: '/b', redirected: false });
  expect(router.getSnapshot().state.segments[1]!.pageData).toEqual({ likes: 1 });
});

test('refreshes asked while a click is on its way make one request once it lands, not a loop', async () => {
  const h = harness();
  const router = start(h);
  const click = router.navigate('/b');
  const first = router.refresh();
  const second = router.revalidate([{ path: '/', type: 'page' }]);
  h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
  await click;
  await flush();
  expect(h.fetches).toHaveLength(2);
  h.fetches[1]!.reply.resolve(jsonResponse(answer('/b', 'b')));
  expect(await Promise.all([first, second])).toEqual([
    { status: 'committed', url: '/b', redirected: false },
    { status: 'committed', url: '/b', redirected: false },
  ]);
  await vi.runAllTimersAsync();
  expect(h.fetches).toHaveLength(2);
});

test('a layout revalidated while a click is on its way stays out of date until the refresh after it lands', async () => {
  const h = harness();
  const router = start(h);
  const click = router.navigate('/b');
  void router.revalidate([{ path: '/', type: 'layout' }]);
  // The click's answer may have been made before the change: its layouts are not to be trusted.
  h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
  await click;
  await flush();
  expect(h.fetches).toHaveLength(2);
  // A click before the refresh lands asks for the layouts whole, as the refresh it cancels did.
  void router.navigate('/c');
  expect(h.fetches.at(-1)!.url).toBe('/c?_sy=%2Fb&_syw=1');
});

test('a hash moved while another page is on its way supersedes it: the older page never shows', async () => {
  const h = harness();
  const router = start(h);
  const slow = router.navigate('/b');
  const hash = router.navigate('/#comments');
  expect(await hash).toMatchObject({ status: 'committed', url: '/#comments' });
  expect(h.fetches[0]!.signal.aborted).toBe(true);
  expect(await slow).toMatchObject({ status: 'aborted', reason: 'superseded' });
  expect(router.getSnapshot()).toMatchObject({ href: '/#comments', pending: false });
  h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
  await flush();
  expect(router.getSnapshot().href).toBe('/#comments');
  expect(h.history.filter((e) => e.op === 'push').map((e) => e.href)).toEqual(['/#comments']);
});

test('a hash moved while a revalidation loads leaves it going: the page shows the new data, at the hash', async () => {
  const h = harness();
  const router = start(h);
  const revalidated = router.revalidate([{ path: '/', type: 'page' }]);
  await router.navigate('/#comments');
  expect(h.fetches[0]!.signal.aborted).toBe(false);
  const changed = answer('/', 'feed');
  changed.segments[1]!.pageData = { likes: 1 };
  h.fetches[0]!.reply.resolve(jsonResponse(changed));
  expect(await revalidated).toEqual({ status: 'committed', url: '/#comments', redirected: false });
  expect(router.getSnapshot().href).toBe('/#comments');
  expect(router.getSnapshot().state.segments[1]!.pageData).toEqual({ likes: 1 });
});

test('a hash moved on a page whose filling a click cut short supersedes the click, and the filling starts again', async () => {
  const { h, router } = await onLoadingState();
  const rest = h.fetches.at(-1)!;
  const click = router.navigate('/c');
  expect(rest.signal.aborted).toBe(true);
  await router.navigate('/slow#part');
  expect(h.fetches.at(-1)!.url).toBe('/slow?_sy=');
  expect(await click).toMatchObject({ status: 'aborted', reason: 'superseded' });
  h.fetches.at(-1)!.reply.resolve(jsonResponse(answer('/slow', 'slow')));
  await flush();
  expect(router.getSnapshot()).toMatchObject({ href: '/slow#part', pending: false });
  expect(router.getSnapshot().state.pendingAt).toBeUndefined();
});

test('during a back still on its way, a link is compared with the page on screen, not the address bar', async () => {
  const h = harness();
  const router = start(h);
  h.location.href = `${ORIGIN}/old`;
  const back = router.onPopState({ key: 'old-key', index: 0 });
  // The page on screen is still /: /old#part is another page, not a hash moved on this one.
  const click = router.navigate('/old#part');
  expect(h.fetches.map((f) => [f.url, f.signal.aborted])).toEqual([
    ['/old?_sy=%2F', true],
    ['/old?_sy=%2F', false],
  ]);
  expect(await back).toMatchObject({ status: 'aborted', reason: 'superseded' });
  h.fetches.at(-1)!.reply.resolve(jsonResponse(answer('/old', 'old')));
  expect(await click).toMatchObject({ status: 'committed', url: '/old#part' });
  expect(router.getSnapshot().state.segments[1]!.pageData).toEqual({ page: 'old' });
});

test('a hash moved on a page whose filling a click cut short, with a refresh waiting for the click: one refresh', async () => {
  const { h, router } = await onLoadingState();
  void router.navigate('/c');
  const revalidated = router.revalidate([{ path: '/slow', type: 'page' }]);
  await router.navigate('/slow#part');
  await flush();
  const asked = h.fetches.length;
  expect(h.fetches.at(-1)!.url).toBe('/slow?_sy=');
  h.fetches.at(-1)!.reply.resolve(jsonResponse(answer('/slow', 'slow')));
  expect(await revalidated).toMatchObject({ status: 'committed', url: '/slow#part' });
  await vi.runAllTimersAsync();
  expect(h.fetches).toHaveLength(asked);
  expect(router.getSnapshot()).toMatchObject({ href: '/slow#part', pending: false });
});

/** The app's entries as the browser would hold them after the router's pushes and replaces. */
function entries(h: ReturnType<typeof harness>) {
  const stack: { key: string; href: string }[] = [];
  for (const { op, state, href } of h.history) {
    if (op === 'push') stack.push({ key: state.key, href });
    else if (op === 'replace') stack.splice(-1, 1, { key: state.key, href });
  }
  return stack;
}

test('a hash pushed while a refresh follows a redirect: each history entry keeps a key of its own', async () => {
  const h = harness();
  const router = start(h);
  const refreshed = router.refresh();
  h.fetches[0]!.reply.resolve(
    jsonResponse({ buildId: BUILD, url: '/', status: 200, redirect: { location: '/out', status: 307 } }),
  );
  await flush();
  expect(h.fetches.map((f) => f.url)).toEqual(['/?_sy=', '/out?_sy=%2F&_syw=1']);
  await router.navigate('/#part');
  h.fetches[1]!.reply.resolve(jsonResponse(answer('/out', 'out')));
  expect(await refreshed).toMatchObject({ status: 'committed', url: '/out', redirected: true });
  const stack = entries(h);
  expect(stack.map((e) => e.href)).toEqual(['/', '/out']);
  expect(new Set(stack.map((e) => e.key)).size).toBe(2);
  // Back to the first entry shows its own page, not the redirect's.
  h.location.href = `${ORIGIN}/`;
  await router.onPopState({ key: stack[0]!.key, index: 0 });
  expect(router.getSnapshot().state.segments[1]!.pageData).toEqual({ page: 'feed' });
});

test('a hash pushed while a refresh loads: back to the entry before it shows the refreshed page', async () => {
  const h = harness();
  const router = start(h);
  const before = h.history.at(-1)!.state;
  const refreshed = router.refresh();
  await router.navigate('/#part');
  const changed = answer('/', 'feed');
  changed.segments[1]!.pageData = { likes: 1 };
  h.fetches[0]!.reply.resolve(jsonResponse(changed));
  await refreshed;
  h.location.href = `${ORIGIN}/`;
  expect(await router.onPopState(before)).toMatchObject({ status: 'committed', url: '/' });
  expect(h.fetches).toHaveLength(1);
  expect(router.getSnapshot().state.segments[1]!.pageData).toEqual({ likes: 1 });
});

test('a layout invalidated while a click is on its way, with no refresh asked, stays out of date after the click lands', async () => {
  const h = harness();
  const router = start(h);
  const click = router.navigate('/b');
  router.invalidate('/', 'layout');
  h.fetches[0]!.reply.resolve(jsonResponse(answer('/b', 'b')));
  await click;
  void router.navigate('/c');
  expect(h.fetches.at(-1)!.url).toBe('/c?_sy=%2Fb&_syw=1');
});
