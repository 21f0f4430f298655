/**
 * Reads a request body into one Buffer, never holding more than `limit` bytes (1 MiB).
 * A declared `Content-Length` over the limit is refused before a byte is read; a chunked body is
 * counted as it arrives and refused the moment it passes the limit. Exactly `limit` bytes pass.
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../http/http-error.js';

/** The largest action request body, in bytes. */
export const MAX_BODY_BYTES = 1_048_576;

/**
 * The body, or a rejection with an `HttpError`: 413 past the limit, 400 if the client goes away
 * first. After a 413, answer with `Connection: close`: the rest of the body is never read into
 * memory, and closing saves reading it off the socket just to keep the connection alive.
 *
 * @example
 * const body = await readBody(req); // Buffer, at most MAX_BODY_BYTES long
 */
export function readBody(req: IncomingMessage, limit: number = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        stop();
        // Flowing with no listener discards what still arrives, so Node can finish the request.
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, received));
    };
    const onAborted = () => {
      stop();
      reject(new HttpError(400, 'The request body ended before it was complete.'));
    };
    const stop = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAborted);
      req.off('close', onAborted);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAborted);
    // `close` before `end` means the client went away mid-body.
    req.on('close', onAborted);
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `The request body is larger than ${limit} bytes.`);
}
