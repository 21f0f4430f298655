/**
 * A time budget that starts when it is made: `race(promise)` settles as the promise does, unless
 * the budget runs out first, then it rejects with the budget's error and aborts `signal`. One
 * timer per budget, on the injected clock; `clear()` stops it once the work is done. An outer
 * `cancel` signal ends the budget early the same way, with its own reason.
 */
import type { RouterEffects } from './router-types.js';

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
  cancel?: AbortSignal,
): Deadline {
  const controller = new AbortController();
  let expire!: (error: Error) => void;
  const expired = new Promise<never>((_, reject) => (expire = reject));
  expired.catch(() => {}); // only `race` callers care
  const end = (error: Error) => {
    controller.abort(error);
    expire(error);
  };
  const timer = effects.setTimeout(() => end(new TimeoutError(message)), ms);
  cancel?.addEventListener('abort', () => end(cancel.reason as Error), { once: true });
  return {
    race: (promise) => Promise.race([promise, expired]),
    signal: controller.signal,
    clear: () => effects.clearTimeout(timer),
  };
}
