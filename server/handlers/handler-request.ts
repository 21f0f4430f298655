/**
 * The Web `Request` a route handler receives, made from Node's. Its body is read first, whole
 * and bounded (1 MiB, as an action's: a larger one is a 413 before the handler runs, however it
 * is sent), so a handler never reads an unbounded stream. Its signal aborts when the client goes
 * away before the answer is complete. Its method is the request's: a `HEAD` that `GET` answers is
 * still a `HEAD` to it.
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { ownOrigin } from '../actions/action-guard.js';
import { readBody } from '../actions/read-body.js';
import type { RequestTarget, TrustProxy } from '../http/request-url.js';
import { toWebRequest } from '../http/web-response.js';

/** Methods whose requests carry no body in the Fetch standard (`new Request` refuses one). */
const BODYLESS = new Set(['GET', 'HEAD']);

/**
 * @param url the request target as parsed (path and search); the origin is the one the client
 *   addressed, as the origin check reads it.
 * @throws HttpError 413 for a body over the limit, 400 for one cut short.
 */
export async function toHandlerRequest(
  req: ExpressRequest,
  res: ExpressResponse,
  url: RequestTarget,
  trustProxy: TrustProxy,
): Promise<globalThis.Request> {
  const body = BODYLESS.has(req.method) ? null : await readBody(req);
  // Its own controller, tied to the response only through this listener: nothing the Request
  // holds reaches back to the response (undici keeps a Request's signal alive until the Request
  // itself is collected).
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client went away'));
  });
  const origin = ownOrigin(req, trustProxy) ?? 'http://localhost';
  // readBody's Buffer is a fresh one over a plain ArrayBuffer, never a shared one.
  const bytes = body && body.length > 0 ? (body as Uint8Array<ArrayBuffer>) : undefined;
  return toWebRequest(req, url, origin, controller.signal, bytes);
}
