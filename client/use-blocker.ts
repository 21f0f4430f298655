/**
 * `useBlocker`: the React binding of the router's blockers (blockers.ts). The component is a
 * blocker while it is mounted; it reads the blocked navigation through one
 * `useSyncExternalStore`, so only blockers re-render when a navigation is blocked or let go.
 */
import { useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { blockersOf, type BlockWhen } from './blockers.js';
import { RouterContext } from './router-context.js';

export type { BlockWhen, PendingNavigation } from './blockers.js';

export type Blocker =
  | { state: 'idle'; location: undefined; proceed(): void; reset(): void }
  | {
      state: 'blocked';
      /** Where the blocked navigation goes: pathname, search and hash (a full URL for another origin). */
      location: string;
      /** Goes on with it; the navigation's promise settles with its own outcome. */
      proceed(): void;
      /** Stays: its promise settles `{ status: 'aborted', reason: 'blocked' }`. */
      reset(): void;
    };

const IDLE: Blocker = { state: 'idle', location: undefined, proceed() {}, reset() {} };

/**
 * Blocks the app's navigations while `when` says so: link clicks, `push` and `replace`, and back
 * and forward (the address bar is put back while blocked). A reload or a tab close gets the
 * browser's own prompt instead. With several blockers, any one blocking holds the navigation.
 *
 * @example
 * const blocker = useBlocker(draft !== '');
 * {blocker.state === 'blocked' && (
 *   <ConfirmLeave onLeave={blocker.proceed} onStay={blocker.reset} />
 * )}
 */
export function useBlocker(when: BlockWhen): Blocker {
  const value = useContext(RouterContext);
  if (!value) throw new Error('useBlocker() must be called inside a Switchyard page');
  // The registry comes with this hook's module: pages without a blocker never load it.
  const blockers = blockersOf(value.router.blockers);
  const [owner] = useState(() => ({}));
  useEffect(() => blockers.set(owner, when), [blockers, owner, when]);
  useEffect(() => () => blockers.remove(owner), [blockers, owner]);
  const current = useSyncExternalStore(blockers.subscribe, blockers.blocked, noneBlocked);
  const blocked = current?.by.has(owner) ? current.location : undefined;
  return useMemo(
    () =>
      blocked === undefined
        ? IDLE
        : { state: 'blocked', location: blocked, proceed: blockers.proceed, reset: blockers.reset },
    [blocked, blockers],
  );
}

const noneBlocked = () => undefined;
