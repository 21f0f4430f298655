/**
 * A route handler's Web `Response` written to Node's: its status and status text, every header
 * (each `Set-Cookie` on its own line), and its body streamed with backpressure. When the client
 * goes away the body's stream is cancelled, so a handler streaming from a source stops reading
 * it. A header the handler sets replaces the framework's default of the same name (the
 * no-script content security policy included).
 */
import type { ServerResponse } from 'node:http';

/**
 * Resolves when the answer is written or the client has gone; rejects when the body's own
 * stream fails, after the headers went out (the caller can only cut the response then).
 *
 * @param head answer a `HEAD`: the same status and headers, and no body.
 */
export async function sendResponse(res: ServerResponse, response: Response, head: boolean): Promise<void> {
  if (res.destroyed) return cancel(response);
  const names: string[] = [];
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  response.headers.forEach((value, name) => {
    // Joined by a comma here, Set-Cookie lines would merge into one broken cookie.
    if (name === 'set-cookie') return;
    res.setHeader(name, value);
    names.push(name);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.appendHeader('set-cookie', cookies);
  if (head || response.body === null) {
    res.end();
    return cancel(response);
  }
  const reader = response.body.getReader();
  // A read waiting on the source ends at once (done) when the source is cancelled.
  const onClose = () => void reader.cancel(new Error('the client went away')).catch(() => {});
  res.once('close', onClose);
  try {
    for (;;) {
      // A failing source throws here, and only here: the caller's error to answer.
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (!res.write(value)) await drainedOrClosed(res);
    }
    if (!res.destroyed) res.end();
  } catch (error) {
    // Failed before a byte went out: the caller answers with a clean slate, none of this head.
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
function drainedOrClosed(res: ServerResponse): Promise<void> {
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

async function cancel(response: Response): Promise<void> {
  // A body that already failed has nothing left to end.
  await response.body?.cancel().catch(() => {});
}
