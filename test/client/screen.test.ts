/**
 * The screen: the one writer of the snapshot. `pending` derives from the phase, a phase change
 * that leaves `pending` as it was notifies nobody, and a hash moved within the page keeps both
 * the phase and the page.
 */
import { expect, test } from 'vitest';
import type { HistoryEntryState, RouterEffects } from '../../client/router-types';
import { createScreen } from '../../client/screen';
import { pageState } from '../helpers/router-harness';

function setUp() {
  const history: { kind: 'push' | 'replace'; state: HistoryEntryState; href: string }[] = [];
  let keys = 0;
  const effects = {
    currentHref: () => 'https://x.example/a',
    pushState: (state: HistoryEntryState, href: string) => history.push({ kind: 'push', state, href }),
    replaceState: (state: HistoryEntryState, href: string) => history.push({ kind: 'replace', state, href }),
    readScroll: () => ({ x: 0, y: 0 }),
    newKey: () => `k${++keys}`,
  } as unknown as RouterEffects;
  const initial = { state: pageState('/a', 'a'), modules: new Map(), history: null };
  const screen = createScreen(effects, initial);
  let notified = 0;
  screen.subscribe(() => notified++);
  return { screen, history, notifications: () => notified };
}

test('pending is the loading phase; listeners hear of a phase change only when pending changes', () => {
  const { screen, notifications } = setUp();
  expect(screen.getSnapshot().pending).toBe(false);
  screen.setPhase('loading');
  expect(screen.getSnapshot().pending).toBe(true);
  expect(notifications()).toBe(1);
  screen.setPhase('loading');
  expect(notifications()).toBe(1);
  const page = { state: pageState('/b', 'b'), modules: new Map() };
  const commit = { page, href: '/b', scroll: { kind: 'top' } as const, announce: true };
  screen.commit({ ...commit, history: { kind: 'push', key: 'k9' }, phase: 'filling' });
  expect(screen.getSnapshot()).toMatchObject({ href: '/b', commit: 1, pending: false, state: page.state });
  expect(notifications()).toBe(2);
  screen.setPhase('idle');
  expect(notifications()).toBe(2);
});

test('a hash moved within the page keeps the phase, the page, and what the entry holds', () => {
  const { screen, history } = setUp();
  screen.setPhase('loading');
  const before = screen.getSnapshot();
  screen.commit({
    href: '/a#c',
    history: { kind: 'replace', key: 'k1' },
    scroll: { kind: 'keep' },
    announce: false,
  });
  expect(screen.getSnapshot()).toMatchObject({ href: '/a#c', commit: 1, pending: true, state: before.state });
  expect(history.at(-1)).toEqual({ kind: 'replace', state: { key: 'k1', index: 0 }, href: '/a#c' });
  screen.commit({
    href: '/a#d',
    history: { kind: 'push', key: 'k2' },
    scroll: { kind: 'keep' },
    announce: false,
  });
  expect(history.at(-1)).toEqual({ kind: 'push', state: { key: 'k2', index: 1 }, href: '/a#d' });
  expect(screen.held.get('k2')?.state).toBe(before.state);
  expect(screen.entry()).toEqual({ key: 'k2', index: 1 });
});
