/**
 * The hooks are thin: each call lands on the router core with the right arguments. Rendered on
 * the server's renderer, which runs hooks without a DOM.
 */
import { renderToString } from 'react-dom/server';
import { expect, test, vi } from 'vitest';
import { RouterContext, useRouter, type AppRouter } from '../../client/router-context';
import type { Router } from '../../client/router';
import type { PageState } from '../../shared/page-state';

test('useRouter maps each call onto the core, whose outcomes it returns; prefetch asks for a full entry', async () => {
  const committed = { status: 'committed', url: '/a', redirected: false };
  const core = {
    navigate: vi.fn(() => Promise.resolve(committed)),
    refresh: vi.fn(() => Promise.resolve(committed)),
    back: vi.fn(),
    forward: vi.fn(),
    prefetch: vi.fn(),
    onNavigation: vi.fn(() => () => {}),
  };
  let app: AppRouter | undefined;
  function Probe() {
    app = useRouter();
    return null;
  }
  const state = { url: '/', params: {} } as unknown as PageState;
  renderToString(
    <RouterContext.Provider value={{ router: core as unknown as Router, state }}>
      <Probe />
    </RouterContext.Provider>,
  );
  expect(await app!.push('/a')).toBe(committed);
  void app!.replace('/b', { scroll: false });
  void app!.prefetch('/c');
  app!.back();
  app!.forward();
  void app!.refresh();
  const listener = () => {};
  app!.subscribe(listener);
  expect(core.onNavigation.mock.calls).toEqual([[listener]]);
  expect(core.navigate.mock.calls).toEqual([
    ['/a', { replace: false }],
    ['/b', { scroll: false, replace: true }],
  ]);
  expect(core.prefetch.mock.calls).toEqual([['/c', 'full']]);
  expect([core.back, core.forward, core.refresh].map((f) => f.mock.calls.length)).toEqual([1, 1, 1]);
});

test('a hook outside a Switchyard page says so', () => {
  function Probe() {
    useRouter();
    return null;
  }
  expect(() => renderToString(<Probe />)).toThrow('useRouter() must be called inside a Switchyard page');
});
