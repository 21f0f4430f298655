/**
 * What the router holds of navigation blockers before any exist: a gate that lets every
 * navigation through, back and forward too. The registry itself (blockers.ts), with the history
 * side of blocking (history-gate.ts), comes with the first `useBlocker`, in the chunk of the page
 * that calls it, and the gate then asks it; pages without one never load either.
 */
import type { StartedNavigation } from './navigation-events.js';
import type { HistoryEntryState, NavigationOutcome, RouterEffects } from './router-types.js';

/**
 * The navigation a blocker is asked about. `unload` is a reload or a tab close, asked when the
 * browser is about to leave: it does not say where it goes.
 */
export type PendingNavigation =
  | { kind: 'push' | 'replace' | 'pop'; currentUrl: string; nextUrl: string }
  | { kind: 'unload'; currentUrl: string; nextUrl: undefined };

export type BlockerEffects = Pick<RouterEffects, 'currentHref' | 'go' | 'guardUnload' | 'reportError'>;

/** A popstate let through (`started`), or the outcome of the blocked navigation it belongs to. */
export type PopPass<S extends StartedNavigation = StartedNavigation> =
  { started: S } | { started?: undefined; outcome: Promise<NavigationOutcome> };

/** What the router asks of the blockers, and where `useBlocker` finds their registry. */
export interface BlockerGate {
  /**
   * Stops `started` if any blocker blocks `navigation`, and then returns true; `run` starts it
   * on `proceed`.
   */
  block(navigation: PendingNavigation, started: StartedNavigation, run: () => void): boolean;
  /**
   * A popstate to `entry` from the entry the router is on (`from`): a navigation `start`ed and
   * let through, or a move that belongs to a blocked one (putting it back, or making it again).
   */
  pop<S extends StartedNavigation>(
    entry: HistoryEntryState | null,
    from: { key: string; index: number },
    navigation: PendingNavigation,
    start: () => S,
  ): PopPass<S>;
  /** The page leaves for a full load the router made or was let make: no prompt for it. */
  leaving(): void;
  /** The registry, made by `create` the first time it is asked for. */
  registry<B extends Asked>(create: (effects: BlockerEffects) => B): B;
}

type Asked = Pick<BlockerGate, 'block' | 'pop' | 'leaving'>;

export function createBlockerGate(effects: BlockerEffects): BlockerGate {
  let registry: Asked | undefined;
  // A page that is leaving before any blocker exists stays without a prompt.
  let left = false;
  return {
    block: (navigation, started, run) => registry?.block(navigation, started, run) ?? false,
    // Before the first blocker no traversal was put back: each popstate is a navigation.
    pop: (entry, from, navigation, start) =>
      registry ? registry.pop(entry, from, navigation, start) : { started: start() },
    leaving() {
      left = true;
      registry?.leaving();
    },
    registry<B extends Asked>(create: (effects: BlockerEffects) => B): B {
      if (!registry) {
        registry = create(effects);
        if (left) registry.leaving();
      }
      return registry as B;
    },
  };
}
