/**
 * A clock the devtools can move: "+30 s" and "+5 min" make fresh → stale → expired visible in
 * seconds. The router reads time only through `effects.now`, so moving the clock swaps that one
 * function for a shifted one, and back to real time swaps the original back: while the clock is
 * not moved (always, unless someone pressed a button), it costs nothing.
 */
import type { RouterEffects } from '../router-types.js';

export interface DevtoolsClock {
  /** Milliseconds the clock is ahead of real time (0: real time). */
  offset(): number;
  move(ms: number): void;
  reset(): void;
}

export function createDevtoolsClock(effects: Pick<RouterEffects, 'now'>): DevtoolsClock {
  const realNow = effects.now;
  let offset = 0;
  const set = (next: number) => {
    offset = next;
    effects.now = offset === 0 ? realNow : () => realNow() + offset;
  };
  return {
    offset: () => offset,
    move: (ms) => set(offset + ms),
    reset: () => set(0),
  };
}
