/**
 * What the router holds of navigation blockers before any exist: a gate that lets every
 * navigation through. The registry itself (blockers.ts) comes with the first `useBlocker`, in the
 * chunk of the page that calls it, and the gate then asks it; pages without one never load it.
 */
import type { StartedNavigation } from './navigation-events.js';
import type { RouterEffects } from './router-types.js';

/**
 * The navigation a blocker is asked about. `unload` is a reload or a tab close, asked when the
 * browser is about to leave: it does not say where it goes.
 */
export type PendingNavigation =
  | { kind: 'push' | 'replace' | 'pop'; currentUrl: string; nextUrl: string }
  | { kind: 'unload'; currentUrl: string; nextUrl: undefined };

export type BlockerEffects = Pick<RouterEffects, 'currentHref' | 'guardUnload' | 'reportError'>;

/** What the router asks of the blockers, and where `useBlocker` finds their registry. */
export interface BlockerGate {
  /**
   * Stops `started` if any blocker blocks `navigation`, and then returns true; `run` starts it
   * on `proceed`.
   */
  block(navigation: PendingNavigation, started: StartedNavigation, run: () => void): boolean;
  /** The page leaves for a full load the router made or was let make: no prompt for it. */
  leaving(): void;
  /** The registry, made by `create` the first time it is asked for. */
  registry<B extends Asked>(create: (effects: BlockerEffects) => B): B;
}

type Asked = Pick<BlockerGate, 'block' | 'leaving'>;

export function createBlockerGate(effects: BlockerEffects): BlockerGate {
  let registry: Asked | undefined;
  // A page that is leaving before any blocker exists stays without a prompt.
  let left = false;
  return {
    block: (navigation, started, run) => registry?.block(navigation, started, run) ?? false,
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
