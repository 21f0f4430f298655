/**
 * Navigation blockers: the registry `useBlocker` writes to, behind the gate the router passes each
 * push, replace, back and forward through before it starts (blocker-gate.ts), which creates it
 * with the first `useBlocker`. While a blocker blocks, the
 * navigation is blocked — one at a time: a newer one supersedes it — until `proceed` runs it or
 * `reset` ends it `aborted: 'blocked'`. Reloads and tab closes get the browser's own
 * `beforeunload` prompt instead. Refreshes, redirects on the way and the full page loads the
 * router makes on its own are never blocked.
 */
import type { BlockerEffects, BlockerGate, PendingNavigation } from './blocker-gate.js';
import { createHistoryGate } from './history-gate.js';
import { SUPERSEDED, type StartedNavigation } from './navigation-events.js';
import type { NavigationOutcome } from './router-types.js';

export type { PendingNavigation } from './blocker-gate.js';

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
  /** For the router: a popstate, through the history side of blocking (history-gate.ts). */
  pop: BlockerGate['pop'];
  /** The page leaves for a full load the router made or was let make: no prompt for it. */
  leaving(): void;
}

export const BLOCKED: NavigationOutcome = { status: 'aborted', reason: 'blocked' };

type Blocked = { view: BlockedNavigation; started: StartedNavigation; run: () => void };

/** The blockers registry behind the router's gate, created the first time it is asked for. */
export const blockersOf = (gate: BlockerGate): Blockers => gate.registry(createBlockers);

export function createBlockers(effects: BlockerEffects): Blockers {
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

  const block: Blockers['block'] = (navigation, started, run) => {
    release()?.started.settle(SUPERSEDED);
    if (navigation.kind === 'unload') return false;
    const by = new Set([...conditions].filter(([, when]) => blocks(when, navigation)).map(([o]) => o));
    if (by.size === 0) return false;
    blocked = { view: { location: navigation.nextUrl, by }, started, run };
    listeners.forEach((listener) => listener());
    return true;
  };

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
    block,
    pop: createHistoryGate(effects, block),
    leaving() {
      passing = true;
      guard();
    },
  };
}
