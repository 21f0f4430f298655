/**
 * The browser side of streamed data: the document's scripts push payloads before or
 * after the entry starts; each settles the place the state announced, and nothing else.
 */
import { expect, test } from 'vitest';
import { slowPageState } from '../helpers/slow-page-state';
import { receiveStreamed } from '../../client/streamed-receiver';
import { isRedirect } from '../../shared/router-signals';

test('payloads pushed before and after the client starts both settle their place; unknown ids do nothing', async () => {
  const page = slowPageState(['lab/slow#pageData', '#layoutData']);
  const scope: Record<string, unknown> = {
    __SY_S: [
      ['lab/slow#pageData', { value: { delayMs: 5 } }],
      ['nope#pageData', { value: 1 }],
    ],
  };
  receiveStreamed(page, scope);
  await page.segments[1]!.pageData;
  expect(page.segments[1]!.pageData).toMatchObject({ status: 'fulfilled', value: { delayMs: 5 } });
  (scope.__SY_S as { push(entry: unknown): void }).push([
    '#layoutData',
    { signal: { kind: 'redirect', location: '/', status: 307 } },
  ]);
  const reason = await (page.segments[0]!.layoutData as Promise<unknown>).catch((e: unknown) => e);
  expect(isRedirect(reason)).toBe(true);
});

test('data that brings head tags makes them the page’s before its place settles', async () => {
  const page = slowPageState(['lab/slow#pageData']);
  const head = [{ key: 'title', tag: 'title' as const, attributes: {}, text: 'Slow' }];
  let seen: unknown;
  const scope: Record<string, unknown> = {};
  receiveStreamed(page, scope);
  const place = page.segments[1]!.pageData as Promise<unknown>;
  const read = place.then(() => (seen = page.streamedHead));
  (scope.__SY_S as { push(entry: unknown): void }).push(['lab/slow#pageData', { value: 1, head }]);
  await read;
  expect(seen).toEqual(head);
});
