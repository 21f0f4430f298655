/**
 * `oneRequestAtATime` (bin/serve.js) over a real socket: requests pipelined on one connection
 * reach the app one at a time, in order, each once the answer before it has been sent; the
 * connection is not read while requests wait; and each runs in the async context it arrived in,
 * not in the one of the answer before it. Answers are sent when the test says.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, expect, test } from 'vitest';
import { oneRequestAtATime } from '../../bin/serve.js';
import { deferred, type Deferred } from '../helpers/deferred';
import { listenOnLoopback, readAll, type LoopbackServer } from '../helpers/loopback-server';

interface Started {
  url: string;
  /** What the async-local store held when the app was called. */
  store: string | undefined;
  req: IncomingMessage;
  res: ServerResponse;
}

const arrival = new AsyncLocalStorage<string>();
let server: LoopbackServer | undefined;
let client: Socket | undefined;
afterEach(async () => {
  client?.destroy();
  await server?.close();
});

/** A server whose app records each request it is given and answers only when told. */
async function startRecording() {
  const started: Started[] = [];
  let next: Deferred<Started> = deferred();
  const app = oneRequestAtATime((req, res) => {
    const entry = { url: req.url!, store: arrival.getStore(), req, res };
    started.push(entry);
    next.resolve(entry);
    next = deferred();
  });
  // Each request arrives with its own store, as a per-request context (Sentry's scope) would.
  server = await listenOnLoopback((req, res) => arrival.run(req.url!, () => app(req, res)));
  return { started, nextStart: () => next.promise, port: server.port };
}

/** Resolves once `check` holds, looking again at each turn of the event loop. */
async function turnsUntil(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

test('pipelined requests reach the app one at a time, in order, in their own context', async () => {
  const { started, nextStart, port } = await startRecording();
  const pipelined = ['/1', '/2', '/3'].map((path) => `GET ${path} HTTP/1.1\r\nHost: a.example\r\n\r\n`);
  let received = '';
  const socket = connect(port, '127.0.0.1', () => socket.write(pipelined.join('')));
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  client = socket;

  const first = await nextStart();
  expect(first).toMatchObject({ url: '/1', store: '/1' });
  // The two behind it wait, and the connection is not read meanwhile.
  await turnsUntil(() => first.req.socket.isPaused() || started.length > 1);
  expect(started).toHaveLength(1);
  expect(first.req.socket.isPaused()).toBe(true);

  first.res.end('one');
  const second = await nextStart();
  expect(second).toMatchObject({ url: '/2', store: '/2' });
  expect(first.res.writableFinished).toBe(true);
  expect(second.req.socket.isPaused()).toBe(true);

  second.res.end('two');
  const third = await nextStart();
  expect(third).toMatchObject({ url: '/3', store: '/3' });
  // Nothing waits any more: the connection is read again.
  expect(third.req.socket.isPaused()).toBe(false);

  third.res.end('three');
  await turnsUntil(() => received.endsWith('three'));
  expect(received.match(/\r\n\r\n(one|two|three)/g)).toEqual(['\r\n\r\none', '\r\n\r\ntwo', '\r\n\r\nthree']);
});

test('a request on a connection with nothing before it is given to the app at once', async () => {
  const { started, port } = await startRecording();
  const socket = connect(port, '127.0.0.1', () =>
    socket.write('GET /only HTTP/1.1\r\nHost: a.example\r\n\r\n'),
  );
  client = socket;
  await turnsUntil(() => started.length === 1);
  expect(started[0]).toMatchObject({ url: '/only', store: '/only' });
  expect(started[0]!.req.socket.isPaused()).toBe(false);
});

test('a body that was still arriving when its request had to wait is read in its turn', async () => {
  const { nextStart, port } = await startRecording();
  const body = 'x'.repeat(1024 * 1024);
  let received = '';
  const socket = connect(port, '127.0.0.1', () =>
    socket.write(
      'GET /first HTTP/1.1\r\nHost: a.example\r\n\r\n' +
        `POST /post HTTP/1.1\r\nHost: a.example\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ),
  );
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  client = socket;

  const first = await nextStart();
  await turnsUntil(() => first.req.socket.isPaused());
  first.res.end('first');
  const post = await nextStart();
  expect(post.url).toBe('/post');
  post.res.end(`read ${(await readAll(post.req)).length}`);
  await turnsUntil(() => received.endsWith(`read ${body.length}`));
});

test('a resume and a pause in one tick while requests wait still leave the connection unread', async () => {
  const { nextStart, port } = await startRecording();
  const socket = connect(port, '127.0.0.1', () =>
    socket.write('GET /1 HTTP/1.1\r\nHost: a.example\r\n\r\nGET /2 HTTP/1.1\r\nHost: a.example\r\n\r\n'),
  );
  client = socket;
  const first = await nextStart();
  const served = first.req.socket;
  await turnsUntil(() => served.isPaused());
  // Node's drain handler resumes, and a request parsed in the same tick pauses: 'resume' comes
  // after both, and Node's server starts reading on it. Only the handle tells whether it reads.
  served.resume();
  served.pause();
  // 'resume' is emitted on the next tick; a turn of the event loop is past it.
  await new Promise((resolve) => setImmediate(resolve));
  expect(isReading(served)).toBe(false);
  expect(served.isPaused()).toBe(true);
});

/** Whether the socket's handle is reading: what pausing a socket Node's HTTP server consumes means. */
function isReading(socket: Socket): boolean {
  return (socket as unknown as { _handle: { reading: boolean } })._handle.reading;
}
