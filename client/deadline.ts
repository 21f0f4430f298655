/**
 * A time budget that starts when it is made: `race(promise)` settles as the promise does, unless
 * the budget runs out first, then it rejects with the budget's error and aborts `signal`. One
 * timer per budget, on the injected clock; `clear()` stops it once the work is done.
 */
import type { RouterEffects } from './router-types';

export class TimeoutError extends Error {}

export interface Deadline {
  race<T>(promise: Promise<T>): Promise<T>;
  /** Aborted when the budget runs out: hand it to fetches the budget covers. */
  readonly signal: AbortSignal;
  clear(): void;
}

export function startDeadline(
  effects: Pick<RouterEffects, 'setTimeout' | 'clearTimeout'>,
  ms: number,
  message: string,
): Deadline {
  const controller = new AbortController();
  let expire!: (error: TimeoutError) => void;
  const expired = new Promise<never>((_, reject) => (expire = reject));
  expired.catch(() => {}); // only `race` callers care
  const timer = effects.setTimeout(() => {
    const error = new TimeoutError(message);
    controller.abort(error);
    expire(error);
  }, ms);
  return {
    race: (promise) => Promise.race([promise, expired]),
    signal: controller.signal,
    clear: () => effects.clearTimeout(timer),
  };
}
