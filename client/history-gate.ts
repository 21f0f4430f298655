/**
 * The history side of blocking. The router writes each history entry's index, so a back or
 * forward (which has moved the browser when popstate fires) can be put back by its delta while
 * it is blocked, and made again on proceed. The two popstates those moves cause belong to the blocked
 * navigation: neither starts one of its own. The browser drops a traversal asked for while another
 * is on its way, so a proceed that comes before the put-back has landed waits for it. A full load
 * the router makes leaves the page without a prompt.
 */
import type { BlockerGate, PendingNavigation } from './blocker-gate.js';
import { SUPERSEDED, type StartedNavigation } from './navigation-events.js';
import type { HistoryEntryState, NavigationOutcome, RouterEffects } from './router-types.js';

/** A popstate let through (`started`), or the outcome of the blocked navigation it belongs to. */
export type PopPass<S extends StartedNavigation = StartedNavigation> =
  { started: S } | { started?: undefined; outcome: Promise<NavigationOutcome> };

export function createHistoryGate<S extends StartedNavigation = StartedNavigation>(
  effects: RouterEffects,
  blockers: BlockerGate,
) {
  /**
   * The entry a blocked traversal put the browser back to, that navigation's outcome, and the
   * traversal to make again once the browser is there (a proceed that came first).
   */
  let undone: { key: string; outcome: Promise<NavigationOutcome>; redo?: () => void } | undefined;
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
        const { outcome, redo } = undone;
        undone = undefined;
        redo?.();
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
        const redo = () => effects.go(to - from.index);
        if (undone) undone.redo = redo;
        else redo();
      };
      if (!blockers.block(navigation, started, run)) return { started };
      undone = { key: from.key, outcome: started.outcome };
      effects.go(from.index - to);
      return { outcome: started.outcome };
    },
  };
}
