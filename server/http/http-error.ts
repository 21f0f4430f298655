/**
 * An error that carries the HTTP status a request handler should answer with. Only 4xx is
 * thrown this way: the message names what was wrong with the request and is safe to show.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
