/**
 * How a render is stopped (the client went away, the deadline passed): a flag, its reason and
 * the few callbacks that must hear of it. An `AbortController` per request did the same at
 * several times the cost (an `EventTarget` with its listener maps, and the signal's own
 * bookkeeping); one is made only for a loader that reads `request.signal` (`signal()` below).
 */
export class RenderStop {
  stopped = false;
  reason: unknown = undefined;
  private listeners: ((reason: unknown) => void)[] | undefined;

  /** Calls `listener` once, when the render stops; never if it has stopped already (as a signal's listener). */
  onStop(listener: (reason: unknown) => void): void {
    if (!this.stopped) (this.listeners ??= []).push(listener);
  }

  stop(reason: unknown): void {
    if (this.stopped) return;
    this.stopped = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener(reason);
  }

  /** A signal that aborts when the render stops: made on demand, for a loader's `Request`. */
  signal(): AbortSignal {
    if (this.stopped) return AbortSignal.abort(this.reason);
    const controller = new AbortController();
    this.onStop((reason) => controller.abort(reason));
    return controller.signal;
  }
}
