/**
 * Navigation blockers: the registry `useBlocker` writes to, and the gate the router passes each
 * push, replace, back and forward through before it starts. While a blocker blocks, the
 * navigation is blocked — one at a time: a newer one supersedes it — until `proceed` runs it or
 * `reset` ends it `aborted: 'blocked'`. Reloads and tab closes get the browser's own
 * `beforeunload` prompt instead. Refreshes, redirects on the way and the full page loads the
 * router makes on its own are never blocked.
 */
import { SUPERSEDED, type StartedNavigation } from './navigation-events.js';
import type { HistoryEntryState, NavigationOutcome, RouterEffects } from './router-types.js';

/**
 * The navigation a blocker is asked about. `unload` is a reload or a tab close, asked when the
 * browser is about to leave: it does not say where it goes.
 */
export type PendingNavigation =
  | { kind: 'push' | 'replace' | 'pop'; currentUrl: string; nextUrl: string }
  | { kind: 'unload'; currentUrl: string; nextUrl: undefined };

/** Whether to block: always, never, or decided for each navigation. */
export type BlockWhen = boolean | ((navigation: PendingNavigation) => boolean);

/** The navigation blocked: where it goes, and the blockers that block it. */
export interface BlockedNavigation {
  location: string;
  by: ReadonlySet<object>;
}

export interface Blockers {
  /** Adds the blocker `owner`, or changes when it blocks. */
  set(owner: object, when: BlockWhen): void;
  /** Removes it; a navigation no remaining blocker holds is reset. */
  remove(owner: object): void;
  subscribe(listener: () => void): () => void;
  /** The navigation blocked now; the same object until it changes. */
  blocked(): BlockedNavigation | undefined;
  /** Runs the blocked navigation; its promise settles with its own outcome. */
  proceed(): void;
  /** Drops the blocked navigation: it settles `aborted: 'blocked'`. */
  reset(): void;
  /**
   * For the router: stops `started` if any blocker blocks `navigation`, and then returns true;
   * `run` starts it on `proceed`.
   */
  block(navigation: PendingNavigation, started: StartedNavigation, run: () => void): boolean;
  /** The page leaves for a full load the router made or was let make: no prompt for it. */
  leaving(): void;
}

export const BLOCKED: NavigationOutcome = { status: 'aborted', reason: 'blocked' };

type Blocked = { view: BlockedNavigation; started: StartedNavigation; run: () => void };

export function createBlockers(
  effects: Pick<RouterEffects, 'currentHref' | 'guardUnload' | 'reportError'>,
): Blockers {
  const conditions = new Map<object, BlockWhen>();
  const listeners = new Set<() => void>();
  let blocked: Blocked | undefined;
  /** A navigation let through is on its way, or the page is leaving: no prompt meanwhile. */
  let passing = false;
  let guarded = false;

  function blocks(when: BlockWhen, navigation: PendingNavigation): boolean {
    if (typeof when === 'boolean') return when;
    try {
      return when(navigation);
    } catch (error) {
      // A broken condition must not trap the user on the page.
      effects.reportError?.('switchyard: a blocker threw; the navigation goes on', error);
      return false;
    }
  }

  const blocksUnload = () => {
    const url = new URL(effects.currentHref());
    const currentUrl = url.pathname + url.search + url.hash;
    const navigation: PendingNavigation = { kind: 'unload', currentUrl, nextUrl: undefined };
    return [...conditions.values()].some((when) => blocks(when, navigation));
  };

  /** The `beforeunload` listener is there only while a blocker may block. */
  function guard(): void {
    const on = !passing && [...conditions.values()].some((when) => when !== false);
    if (on === guarded) return;
    guarded = on;
    effects.guardUnload?.(on ? blocksUnload : null);
  }

  function release(): Blocked | undefined {
    const was = blocked;
    blocked = undefined;
    if (was) listeners.forEach((listener) => listener());
    return was;
  }

  return {
    set(owner, when) {
      conditions.set(owner, when);
      guard();
    },
    remove(owner) {
      conditions.delete(owner);
      guard();
      if (blocked && ![...blocked.view.by].some((by) => conditions.has(by)))
        release()?.started.settle(BLOCKED);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    blocked: () => blocked?.view,
    proceed() {
      const was = release();
      if (!was) return;
      passing = true;
      guard();
      void was.started.outcome.then(({ status }) => {
        if (status === 'hard') return; // the page is leaving
        passing = false;
        guard();
      });
      was.run();
    },
    reset() {
      release()?.started.settle(BLOCKED);
    },
    block(navigation, started, run) {
      release()?.started.settle(SUPERSEDED);
      if (navigation.kind === 'unload') return false;
      const by = new Set([...conditions].filter(([, when]) => blocks(when, navigation)).map(([o]) => o));
      if (by.size === 0) return false;
      blocked = { view: { location: navigation.nextUrl, by }, started, run };
      listeners.forEach((listener) => listener());
      return true;
    },
    leaving() {
      passing = true;
      guard();
    },
  };
}

/** A popstate let through (`started`), or the outcome of the blocked navigation it belongs to. */
export type PopPass<S extends StartedNavigation = StartedNavigation> =
  { started: S } | { started?: undefined; outcome: Promise<NavigationOutcome> };

/**
 * The history side of blocking. The router writes each history entry's index, so a back or
 * forward (which has moved the browser when popstate fires) can be put back by its delta while
 * it is blocked, and made again on proceed. The two popstates those moves cause belong to the blocked
 * navigation: neither starts one of its own. A full load the router makes leaves the page
 * without a prompt.
 */
export function createHistoryGate<S extends StartedNavigation = StartedNavigation>(
  effects: RouterEffects,
  blockers: Blockers,
) {
  /** The entry a blocked traversal put the browser back to, and that navigation's outcome. */
  let undone: { key: string; outcome: Promise<NavigationOutcome> } | undefined;
  /** The entry a proceeded traversal goes to, and its navigation. */
  let redone: { key: string; started: S } | undefined;
  // The other effects are read through the prototype: a devtools clock that patches `now`
  // later is seen.
  const tracked = Object.create(effects) as RouterEffects;
  tracked.assign = (href) => {
    blockers.leaving();
    effects.assign(href);
  };

  return {
    effects: tracked,

    block: blockers.block,

    /** A popstate to `entry` from the entry the router is on (`from`). */
    pop(
      entry: HistoryEntryState | null,
      from: { key: string; index: number },
      navigation: PendingNavigation,
      start: () => S,
    ): PopPass<S> {
      if (undone && entry?.key === undone.key) {
        const { outcome } = undone;
        undone = undefined;
        return { outcome };
      }
      undone = undefined;
      const proceeded = redone && entry?.key === redone.key ? redone.started : undefined;
      if (!proceeded) redone?.started.settle(SUPERSEDED);
      redone = undefined;
      if (proceeded) return { started: proceeded };
      const started = start();
      const to = entry?.index;
      // An entry the router did not write has no index: its traversal cannot be put back.
      if (to === undefined || to === from.index) return { started };
      const run = () => {
        redone = { key: entry!.key, started };
        effects.go(to - from.index);
      };
      if (!blockers.block(navigation, started, run)) return { started };
      undone = { key: from.key, outcome: started.outcome };
      effects.go(from.index - to);
      return { outcome: started.outcome };
    },
  };
}
