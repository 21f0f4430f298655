/**
 * The app's routes, loaders and actions, tested with the router the browser runs, in Node:
 * `createTestApp` serves `app/` in this process, and each router's clock moves only by hand.
 * docs: "Testing your app" in the Switchyard documentation.
 */
import { expect, test } from 'vitest';
import { createTestApp } from 'switchyard-react/testing';
import { saveNote } from '../lib/actions';

const appDir = new URL('../app', import.meta.url);

test('a prefetched entry is fresh for 30 s, stale until 300 s, then expired', async () => {
  const app = await createTestApp({ appDir });
  const router = await app.router({ url: '/' });
  await router.prefetch('/items/1');
  await router.idle();
  // A link's prefetch (`auto`) stops at the item's loading state.
  expect(app.requests.at(-1)).toMatchObject({ kind: 'prefetch', url: '/items/1', mode: 'auto' });
  const entry = () => router.snapshot().entries.find((e) => e.key === '/items/1');
  expect(entry()).toMatchObject({ status: 'fresh', data: 'settled' });
  app.clock.advance(30_000);
  expect(entry()?.status).toBe('stale');
  app.clock.advance(270_000);
  expect(entry()?.status).toBe('expired');
});

test('a click on a prefetched link makes no request', async () => {
  const app = await createTestApp({ appDir });
  const router = await app.router({ url: '/' });
  // `full` goes past the item's loading state: the click needs nothing more.
  await router.prefetch('/items/2', { kind: 'full' });
  await router.idle();
  const before = app.requests.length;
  expect(await router.push('/items/2')).toEqual({ status: 'committed', url: '/items/2', redirected: false });
  await router.idle();
  expect(app.requests.slice(before)).toEqual([]);
  expect(await router.html()).toContain('<h1>Signal</h1>');
});

test('saving a note revalidates the item page, which shows it', async () => {
  const app = await createTestApp({ appDir });
  const router = await app.router({ url: '/items/3' });
  const form = new FormData();
  form.set('itemId', '3');
  form.set('text', 'Oiled on Monday');
  const before = app.requests.length;
  expect(await router.action(saveNote, { error: null, text: '' }, form)).toEqual({ error: null, text: '' });
  // The action's call, then the page's data again: the revalidation.
  expect(app.requests.slice(before)).toMatchObject([
    { kind: 'action', action: 'saveNote' },
    { kind: 'page-data', url: '/items/3' },
  ]);
  expect(await router.html()).toContain('<li>Oiled on Monday</li>');
});
