/**
 * The screen: the one snapshot React reads, the history entry it stands for, the pages held for
 * back and forward under their entries' keys, and whether its layout data is to be trusted. A new page (or a hash moved within one) goes
 * through `commit`, the navigation's phase through `setPhase`; nothing else writes the snapshot.
 * `pending` derives from the phase: true only while a navigation is `loading` its first render.
 */
import { HISTORY_ENTRIES_HELD } from '../shared/constants.js';
import { createHeldPages, type HeldPage } from './held-pages.js';
import { firstSnapshot, toLocal } from './lazy-router.js';
import type {
  HistoryEntryState,
  RouterEffects,
  RouterOptions,
  RouterSnapshot,
  ScrollIntent,
} from './router-types.js';
import { placeOf, popTransition, type NavigationDirection } from './view-transition.js';

/**
 * What the router is doing: nothing (`idle`), waiting for a navigation's first render
 * (`loading`), or fetching what a committed loading state stands for (`filling`).
 */
export type Phase = 'idle' | 'loading' | 'filling';

/** One change of what is on screen. */
export interface Commit {
  /** The page shown; absent, the page stays and only the hash moved. */
  page?: HeldPage;
  /** Pathname, search and hash for the address bar. */
  href: string;
  /** A new entry (`push`) or this one rewritten (`replace`), under `key`; absent, history is already there. */
  history?: { kind: 'push' | 'replace'; key: string } | undefined;
  scroll: ScrollIntent;
  /** A new page: the view moves focus to it and announces it. */
  announce: boolean;
  /** The phase from now on; absent, it stays (a hash moved while a refresh or a filling goes on). */
  phase?: Phase | undefined;
  /** Listeners hear of it inside a view transition, and a new entry is marked for back and forward. */
  transition?: NavigationDirection | undefined;
}

export function createScreen(effects: RouterEffects, initial: RouterOptions['initial']) {
  const listeners = new Set<() => void>();
  const held = createHeldPages(HISTORY_ENTRIES_HELD);
  let key = initial.history?.key ?? effects.newKey();
  let place = placeOf(initial.history);
  let phase: Phase = 'idle';
  /** Layout changes marked so far (a refresh, a layout revalidated), and how many a page answers. */
  let layoutChanges = 0;
  let layoutsAnswered = 0;
  let snapshot: RouterSnapshot = firstSnapshot(initial, effects.currentHref());
  effects.replaceState({ key, ...place }, snapshot.href);
  held.hold(key, { state: initial.state, modules: initial.modules });

  /**
   * The one writer of the snapshot. With a `transition`, listeners (React) hear of it inside the
   * view transition, so that the browser captures the page before and after.
   */
  function publish(next: Partial<RouterSnapshot>, transition?: NavigationDirection): void {
    snapshot = { ...snapshot, ...next, pending: phase === 'loading' };
    const notify = () => listeners.forEach((listener) => listener());
    if (transition && effects.viewTransition) effects.viewTransition(transition, notify);
    else notify();
  }

  /**
   * Keeps the scroll position in the history entry the browser is on, at its own URL: during a
   * back or forward still on its way, that entry is the one arrived at, not the page on screen.
   */
  function saveScroll(): void {
    const scroll = effects.readScroll();
    held.keepScroll(key, scroll);
    effects.replaceState({ key, ...place, scroll }, toLocal(effects.currentHref()));
  }

  function commit({ page, href, history, scroll, announce, phase: next, transition }: Commit): void {
    const entered = transition ? { viewTransition: true as const } : {};
    if (history?.kind === 'push') {
      saveScroll();
      place = { index: place.index + 1, ...entered };
      effects.pushState({ key: history.key, ...place }, href);
    } else if (history) {
      // A hash moved within the entry keeps its place; a new page in it takes its own.
      if (page) place = { index: place.index, ...entered };
      effects.replaceState({ key: history.key, ...place }, href);
    }
    if (history) key = history.key;
    // Only a new entry holds the page it shows; a hash moved within one leaves what it holds.
    if (page || history?.kind === 'push')
      held.hold(key, page ?? { state: snapshot.state, modules: snapshot.modules });
    if (next) phase = next;
    const shown = page ? { state: page.state, modules: page.modules } : {};
    publish({ ...shown, href, commit: snapshot.commit + 1, scroll, announce }, transition);
  }

  return {
    getSnapshot: () => snapshot,
    subscribe(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The key of the history entry on screen, and its place among the app's entries. */
    entry: () => ({ key, index: place.index }),
    held,
    commit,
    /**
     * Whether the layout data on screen may be out of date: from a refresh or a layout's
     * revalidation until a page asked for from the server after it commits. Meanwhile navigations and
     * prefetches ask for every layout's data instead of reusing it.
     */
    layoutsOutOfDate: () => layoutsAnswered !== layoutChanges,
    markLayoutsChanged(): void {
      layoutChanges++;
    },
    /** The layout changes marked so far: what a page asked for now will answer. */
    layoutChanges: () => layoutChanges,
    /** A page asked for when `asOf` changes were marked has committed: those are answered. */
    trustLayouts(asOf: number): void {
      layoutsAnswered = Math.max(layoutsAnswered, asOf);
    },
    saveScroll,

    /** A phase change that commits nothing; listeners hear of it when `pending` changes. */
    setPhase(next: Phase): void {
      const pending = phase === 'loading';
      phase = next;
      if ((next === 'loading') !== pending) publish({});
    },

    /**
     * The browser moved to `to` (popstate; `null`: an entry a `#fragment` link added after the
     * one we were on): the page left keeps its scroll position for when the user comes back.
     * Returns the direction of the view transition the move runs, if any.
     */
    arrive(to: HistoryEntryState | null, href: string): NavigationDirection | undefined {
      held.keepScroll(key, effects.readScroll());
      key = to?.key ?? effects.newKey();
      const transition = to?.index === undefined ? undefined : popTransition(place, placeOf(to));
      place = to ? placeOf(to) : { index: place.index + 1 };
      if (!to) effects.replaceState({ key, ...place }, href);
      return transition;
    },
  };
}

export type Screen = ReturnType<typeof createScreen>;
