/**
 * Streamed places: tracked promises React can read synchronously once settled, left
 * out of the serialised state, and filled on the client only where the state announced them.
 */
import { expect, test } from 'vitest';
import { slowPageState } from '../helpers/slow-page-state';
import { awaitStreamed, isTracked, streamedPlaces, track } from '../../shared/streamed-data';
import { deferred } from '../helpers/deferred';

test('a tracked promise says how it settled, for use() to read without waiting', async () => {
  const ok = deferred<number>();
  const tracked = track(ok.promise);
  expect(tracked.status).toBe('pending');
  ok.resolve(7);
  await tracked;
  expect(tracked).toMatchObject({ status: 'fulfilled', value: 7 });
  const failing = track(Promise.reject(new Error('no')));
  await failing.catch(() => {});
  expect(failing.status).toBe('rejected');
  expect(isTracked(Promise.resolve(1))).toBe(false);
});

test('a streamed place is left out of the serialised state, and found by streamedPlaces', () => {
  const page = slowPageState(['lab/slow#pageData']);
  page.segments[1]!.pageData = track(new Promise(() => {}));
  expect(JSON.parse(JSON.stringify(page)).segments[1]).toEqual({
    dir: 'lab/slow',
    files: { page: 'lab/slow/page.tsx' },
  });
  expect(streamedPlaces(page).map((p) => p.id)).toEqual(['lab/slow#pageData']);
});

test('the client puts a promise only in the places the state announced', () => {
  const page = slowPageState(['lab/slow#pageData']);
  const settlers = awaitStreamed(page);
  expect([...settlers.keys()]).toEqual(['lab/slow#pageData']);
  expect(isTracked(page.segments[1]!.pageData)).toBe(true);
  expect(page.segments[0]!.layoutData).toEqual({ site: 'x' });
});
