/**
 * The Web `Request` a route handler receives, made from Node's. Its body is read first, whole
 * and bounded (1 MiB, as an action's: a larger one is a 413 before the handler runs, however it
 * is sent), so a handler never reads an unbounded stream. Its signal aborts when the client goes
 * away before the answer is complete.
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { ownOrigin } from '../actions/action-guard.js';
import { readBody } from '../actions/read-body.js';

/** Methods whose requests carry no body in the Fetch standard (`new Request` refuses one). */
const BODYLESS = new Set(['GET', 'HEAD']);

/**
 * @param url the request target as parsed (path and search); the origin is the one the client
 *   addressed, as the origin check reads it.
 * @param method the method the handler sees: `HEAD` stays `HEAD` when `GET` answers it.
 * @throws HttpError 413 for a body over the limit, 400 for one cut short.
 */
export async function toHandlerRequest(
  req: ExpressRequest,
  res: ExpressResponse,
  url: URL,
  trustProxy: boolean,
): Promise<globalThis.Request> {
  const body = BODYLESS.has(req.method) ? null : await readBody(req);
  // Its own controller, tied to the response only through this listener: nothing the Request
  // holds reaches back to the response (undici keeps a Request's signal alive until the Request
  // itself is collected).
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client went away'));
  });
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  const origin = ownOrigin(req, trustProxy) ?? 'http://localhost';
  return new globalThis.Request(`${origin}${url.pathname}${url.search}`, {
    method: req.method,
    headers,
    signal: controller.signal,
    // readBody's Buffer is a fresh one over a plain ArrayBuffer, never a shared one.
    ...(body && body.length > 0 ? { body: body as Uint8Array<ArrayBuffer> } : {}),
  });
}
