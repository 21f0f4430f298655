/**
 * `RetryLater`: what app code throws from an action or a loader to say "not now" — 429 when this
 * client is over its limit, 503 when the server is busy (a database locked elsewhere). The answer
 * carries `Retry-After` and the message, which must be safe to show. It is load, not a bug: it is
 * never reported as an error.
 */
export class RetryLater extends Error {
  override readonly name = 'RetryLater';

  /**
   * @example throw new RetryLater(429, 10, 'You are commenting too fast; try again in a few seconds.');
   */
  constructor(
    readonly status: 429 | 503,
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
  }
}

export function isRetryLater(error: unknown): error is RetryLater {
  return error instanceof RetryLater;
}
