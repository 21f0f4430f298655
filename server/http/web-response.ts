/**
 * Web `Request`s for app code, and app code's Web `Response`s written to Node's answer.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';

/**
 * The request as a Web `Request` (no body: middleware reads the method, URL and headers, and
 * leaves the body to the action or handler it goes on to). `url` is the URL the page knows itself
 * by on `origin` (this site's, as the client sent it), joined as text: the path is a path even when it starts with `//` (the Host was checked).
 */
export function toWebRequest(
  req: Request,
  url: URL,
  origin: string,
  signal?: AbortSignal,
): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  return new globalThis.Request(`${origin}${url.pathname}${url.search}`, {
    method: req.method,
    headers,
    ...(signal ? { signal } : {}),
  });
}

/**
 * Writes `response` as the answer: status, headers (each `Set-Cookie` its own line) and body,
 * streamed as the client reads it. A client that goes away cancels the body. `HEAD` gets the
 * head alone.
 */
export async function sendWebResponse(
  req: Request,
  res: Response,
  response: globalThis.Response,
): Promise<void> {
  res.status(response.status);
  if (response.statusText) res.statusMessage = response.statusText;
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.appendHeader('set-cookie', cookies);
  if (!response.body || req.method === 'HEAD') {
    await response.body?.cancel();
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), res).catch(
    () => {
      // The client went away or the body failed mid-way: the connection is closed, nothing to answer.
      res.destroy();
    },
  );
}

/** The target of a redirect `Response` (3xx with `Location`), or `null` for any other answer. */
export function redirectOf(response: globalThis.Response): { location: string; status: number } | null {
  const location = response.headers.get('location');
  return response.status >= 300 && response.status < 400 && location !== null
    ? { location, status: response.status }
    : null;
}
