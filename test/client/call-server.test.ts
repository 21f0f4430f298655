/**
 * The browser half of a server-action call, with `fetch` and the router faked:
 * how arguments are sent, and what each kind of answer does.
 */
import { afterEach, expect, test, vi } from 'vitest';
import { callServer, connectActions } from '../../client/call-server';
import type { Router } from '../../client/router';
import { SERVER_ERROR_MESSAGE } from '../../shared/error-messages';
import { isNotFound } from '../../shared/router-signals';

function answer(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function setUp(body: unknown, status = 200) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => answer(body, status));
  vi.stubGlobal('fetch', fetch);
  const router = {
    navigate: vi.fn(async () => {}),
    revalidate: vi.fn(async () => {}),
    invalidate: vi.fn(),
  };
  connectActions(router as unknown as Router);
  return { fetch, router };
}

afterEach(() => vi.unstubAllGlobals());

test('plain arguments go as JSON, marked as a script call; the value comes back', async () => {
  const { fetch, router } = setUp({ value: { likes: 3 }, revalidated: [] });
  await expect(callServer('abc#like', ['36', { n: 1 }])).resolves.toEqual({ likes: 3 });
  const [url, init] = fetch.mock.calls[0]!;
  expect(url).toBe('/_switchyard/action/abc%23like');
  expect(init.method).toBe('POST');
  expect(init.body).toBe('{"args":["36",{"n":1}]}');
  expect(init.headers).toMatchObject({ 'content-type': 'application/json', 'x-switchyard-action': '1' });
  expect(router.revalidate).not.toHaveBeenCalled();
});

test('a FormData argument goes as the form, with the other arguments in $args', async () => {
  const { fetch } = setUp({ value: null, revalidated: [] });
  const form = new FormData();
  form.set('text', 'hi');
  await callServer('abc#comment', [{ error: null }, form]);
  const body = fetch.mock.calls[0]![1].body as FormData;
  expect(body.get('text')).toBe('hi');
  expect(JSON.parse(body.get('$args') as string)).toEqual([{ error: null }, { $form: true }]);
});

test('revalidated paths: the router drops them and refreshes the page, before the value returns', async () => {
  const revalidated = [
    { path: '/photos/3', type: 'page' },
    { path: '/tags', type: 'layout' },
  ];
  const { router } = setUp({ value: 'ok', revalidated });
  await expect(callServer('abc#like', [])).resolves.toBe('ok');
  expect(router.revalidate).toHaveBeenCalledWith(revalidated);
});

test('revalidated paths with a redirect: their entries are dropped, the page left is not refetched', async () => {
  const { router } = setUp({
    signal: { kind: 'redirect', location: '/photos', status: 307 },
    revalidated: [{ path: '/photos', type: 'layout' }],
  });
  await callServer('abc#add', []);
  expect(router.invalidate).toHaveBeenCalledWith('/photos', 'layout');
  expect(router.revalidate).not.toHaveBeenCalled();
  expect(router.navigate).toHaveBeenCalledWith('/photos');
});

test('a redirect is a navigation, pushed; a hostile one is refused', async () => {
  const { router } = setUp({
    signal: { kind: 'redirect', location: '/photos/2', status: 307 },
    revalidated: [],
  });
  await expect(callServer('abc#go', [])).resolves.toBeUndefined();
  expect(router.navigate).toHaveBeenCalledWith('/photos/2');
  setUp({ signal: { kind: 'redirect', location: '//evil.example', status: 307 }, revalidated: [] });
  await expect(callServer('abc#go', [])).rejects.toThrow('refused to redirect');
  for (const location of ['javascript:alert(1)', 'https://user@evil.example/', 'data:text/html,x']) {
    setUp({ signal: { kind: 'redirect', location, status: 307 }, revalidated: [] });
    await expect(callServer('abc#go', [])).rejects.toThrow('refused to redirect');
  }
});

test('a redirect to an origin the server allowed is left for: the router loads it in full', async () => {
  // Only the server knows the app's allowed origins, and it sends no other.
  const { router } = setUp({
    signal: { kind: 'redirect', location: 'https://docs.example.com/guide', status: 307 },
    revalidated: [],
  });
  await expect(callServer('abc#go', [])).resolves.toBeUndefined();
  expect(router.navigate).toHaveBeenCalledWith('https://docs.example.com/guide');
});

test('notFound() in an action is thrown in the browser as the same signal', async () => {
  setUp({ signal: { kind: 'not-found' }, revalidated: [] });
  const error = await callServer('abc#gone', []).catch((e: unknown) => e);
  expect(isNotFound(error)).toBe(true);
});

test('a server error is thrown with its digest and the fallback text only', async () => {
  setUp({ error: 'server', digest: '0123456789' }, 500);
  const error = (await callServer('abc#fail', []).catch((e: unknown) => e)) as Error & { digest: string };
  expect(error.message).toBe(SERVER_ERROR_MESSAGE);
  expect(error.digest).toBe('0123456789');
});

test('an answer that is not JSON (a proxy page, a 403 text) is an error that says what came', async () => {
  vi.stubGlobal('fetch', async () => new Response('Forbidden: cross-site request', { status: 403 }));
  await expect(callServer('abc#like', [])).rejects.toThrow(
    'the action answered 403 Forbidden: cross-site request',
  );
});
