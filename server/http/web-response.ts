/**
 * Web `Request`s for app code, and app code's Web `Response`s written to Node's answer.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';
import type { RequestTarget } from './request-url.js';

/** Node's request headers as a Web `Headers`, a repeated header as its several values. */
export function webHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * The request as a Web `Request`, with no body unless one is given (middleware reads the method,
 * URL and headers, and leaves the body to the action or handler it goes on to; a route handler
 * is given the body read for it). `url` is the URL the page knows itself by on `origin` (this
 * site's, as the client sent it), joined as text: the path is a path even when it starts with
 * `//` (the Host was checked).
 */
export function toWebRequest(
  req: Request,
  url: Pick<RequestTarget, 'pathname' | 'search'>,
  origin: string,
  signal?: AbortSignal,
  body?: Uint8Array<ArrayBuffer>,
): globalThis.Request {
  return new globalThis.Request(`${origin}${url.pathname}${url.search}`, {
    method: req.method,
    headers: webHeaders(req.headers),
    ...(signal ? { signal } : {}),
    ...(body ? { body } : {}),
  });
}

/**
 * Writes `response` as the answer: status and status text, every header (each `Set-Cookie` its
 * own line; a header of the app's replaces the framework's default of that name, the no-script
 * policy included) and the body, streamed with backpressure. `HEAD` gets the head alone. A
 * client that goes away cancels the body, so a source streamed from stops being read.
 *
 * Resolves when the answer is written or the client has gone. Rejects when the body's own stream
 * fails: past the first byte the response can only be cut short (the caller's to do); before it,
 * none of `response`'s head is left on `res`, so the caller can answer cleanly.
 */
export async function sendWebResponse(
  req: Request,
  res: Response,
  response: globalThis.Response,
): Promise<void> {
  if (res.destroyed) return cancel(response);
  const names: string[] = [];
  res.status(response.status);
  if (response.statusText) res.statusMessage = response.statusText;
  response.headers.forEach((value, name) => {
    // Joined by a comma here, Set-Cookie lines would merge into one broken cookie.
    if (name === 'set-cookie') return;
    res.setHeader(name, value);
    names.push(name);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.appendHeader('set-cookie', cookies);
  if (!response.body || req.method === 'HEAD') {
    res.end();
    return cancel(response);
  }
  const reader = response.body.getReader();
  // A read waiting on the source ends at once (done) when the source is cancelled.
  const onClose = () => void reader.cancel(new Error('the client went away')).catch(() => {});
  res.once('close', onClose);
  try {
    for (;;) {
      // A failing source throws here, and only here.
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await drainedOrClosed(res);
    }
    if (!res.destroyed) res.end();
  } catch (error) {
    if (!res.headersSent) {
      names.forEach((name) => res.removeHeader(name));
      if (cookies.length > 0) res.removeHeader('set-cookie');
      res.statusMessage = '';
    }
    throw error;
  } finally {
    res.off('close', onClose);
  }
}

/** Backpressure: the next chunk is read once the socket took this one, or the client left. */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

async function cancel(response: globalThis.Response): Promise<void> {
  // A body that already failed has nothing left to end.
  await response.body?.cancel().catch(() => {});
}

/** The target of a redirect `Response` (3xx with `Location`), or `null` for any other answer. */
export function redirectOf(response: globalThis.Response): { location: string; status: number } | null {
  const location = response.headers.get('location');
  return response.status >= 300 && response.status < 400 && location !== null
    ? { location, status: response.status }
    : null;
}
