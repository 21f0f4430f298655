/**
 * `readBody` over real HTTP on 127.0.0.1: the limit is enforced before reading (Content-Length)
 * and while reading (chunked), and exactly the limit passes.
 */
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { HttpError } from '../../server/http/http-error';
import { MAX_BODY_BYTES, readBody } from '../../server/actions/read-body';
import { deferred, type Deferred } from '../helpers/deferred';

let server: Server;
let port: number;
/** What the server's `readBody` settled with, for the request the test is making. */
let outcome: Deferred<Buffer | HttpError>;
/** Settled when the server's handler has the request. */
let arrived: Deferred<void>;

beforeAll(async () => {
  server = createServer((req, res) => {
    arrived.resolve();
    readBody(req).then(
      (body) => {
        outcome.resolve(body);
        res.end(`read ${body.length}`);
      },
      (error: HttpError) => {
        outcome.resolve(error);
        if (!res.destroyed) res.writeHead(error.status, { connection: 'close' }).end(error.message);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Answer {
  status: number;
  text: string;
}

/** Starts a POST and returns it with its answer; the test writes the body (or not). */
function post(headers: IncomingHttpHeaders) {
  outcome = deferred();
  arrived = deferred();
  const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers, agent: false });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
  });
  return { req, answer };
}

/** `total` bytes in 64 KiB writes. */
function writeBytes(req: ReturnType<typeof request>, total: number) {
  for (let sent = 0; sent < total; sent += 65_536)
    req.write(Buffer.alloc(Math.min(65_536, total - sent), 120));
}

describe('readBody', () => {
  test('the limit is 1 MiB', () => {
    expect(MAX_BODY_BYTES).toBe(1_048_576);
  });

  test('reads a body of exactly the limit, by Content-Length', async () => {
    const { req, answer } = post({ 'content-length': String(MAX_BODY_BYTES) });
    writeBytes(req, MAX_BODY_BYTES);
    req.end();
    expect(await answer).toEqual({ status: 200, text: `read ${MAX_BODY_BYTES}` });
    // `equals`, not `toEqual`: a deep diff of a MiB is slow, and a boolean says enough.
    expect(((await outcome.promise) as Buffer).equals(Buffer.alloc(MAX_BODY_BYTES, 120))).toBe(true);
  });

  test('reads a chunked body of exactly the limit', async () => {
    const { req, answer } = post({ 'transfer-encoding': 'chunked' });
    writeBytes(req, MAX_BODY_BYTES);
    req.end();
    expect(await answer).toEqual({ status: 200, text: `read ${MAX_BODY_BYTES}` });
  });

  test('refuses a Content-Length of the limit + 1 before a byte of the body is sent', async () => {
    const { req, answer } = post({ 'content-length': String(MAX_BODY_BYTES + 1) });
    // Headers only: the answer can only come if the server did not wait for the body.
    req.flushHeaders();
    expect(await answer).toEqual({
      status: 413,
      text: `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
    });
    const error = await outcome.promise;
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 413 });
    req.destroy();
  });

  test('refuses a chunked body as soon as it passes the limit, without waiting for its end', async () => {
    const { req, answer } = post({ 'transfer-encoding': 'chunked' });
    // One byte over, and the request left open: only counting while reading can answer this.
    writeBytes(req, MAX_BODY_BYTES + 1);
    expect(await answer).toMatchObject({ status: 413 });
    expect(await outcome.promise).toMatchObject({ status: 413 });
    req.destroy();
  });

  test('a client that goes away mid-body is a 400, not a hang', async () => {
    const { req, answer } = post({ 'content-length': '1000' });
    answer.catch(() => {}); // the client side fails: it hung up
    req.write(Buffer.alloc(10));
    await arrived.promise;
    req.destroy();
    expect(await outcome.promise).toMatchObject({
      status: 400,
      message: 'The request body ended before it was complete.',
    });
  });
});
