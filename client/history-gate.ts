/**
 * The history side of blocking, created with the blockers' registry (blockers.ts). The router
 * writes each history entry's index, so a back or forward (which has moved the browser when
 * popstate fires) can be put back by its delta while it is blocked, and made again on proceed.
 * The two popstates those moves cause belong to the blocked navigation: neither starts one of
 * its own. The browser drops a traversal asked for while another is on its way, so a proceed
 * that comes before the put-back has landed waits for it.
 */
import type { BlockerEffects, BlockerGate } from './blocker-gate.js';
import { SUPERSEDED, type StartedNavigation } from './navigation-events.js';
import type { NavigationOutcome } from './router-types.js';

export function createHistoryGate(effects: BlockerEffects, block: BlockerGate['block']): BlockerGate['pop'] {
  /**
   * The entry a blocked traversal put the browser back to, that navigation's outcome, and the
   * traversal to make again once the browser is there (a proceed that came first).
   */
  let undone: { key: string; outcome: Promise<NavigationOutcome>; redo?: () => void } | undefined;
  /** The entry a proceeded traversal goes to, and its navigation. */
  let redone: { key: string; started: StartedNavigation } | undefined;

  return (entry, from, navigation, start) => {
    if (undone && entry?.key === undone.key) {
      const { outcome, redo } = undone;
      undone = undefined;
      redo?.();
      return { outcome };
    }
    undone = undefined;
    const proceeded =
      redone && entry?.key === redone.key ? (redone.started as ReturnType<typeof start>) : undefined;
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
    if (!block(navigation, started, run)) return { started };
    undone = { key: from.key, outcome: started.outcome };
    effects.go(from.index - to);
    return { outcome: started.outcome };
  };
}
