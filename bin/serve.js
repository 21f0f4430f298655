/**
 * Serves a production app: its own request and header timeouts (not Node's 300 s and 60 s), a
 * clear message and exit code 1 when the address is taken, and a shutdown on SIGTERM or SIGINT
 * that stops accepting, lets requests in flight finish, and exits by a deadline whatever a
 * client does (a body trickled two bytes at a time included). A connection has one request in
 * the app at a time, however many it pipelines.
 */
import { AsyncResource } from 'node:async_hooks';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { setImmediate, setTimeout } from 'node:timers';

/**
 * The server's time limits from the environment, in milliseconds; a bad value throws with its name.
 * @param {Record<string, string | undefined>} env
 */
export function readServerLimits(env) {
  return {
    shutdownMs: milliseconds(env, 'SWITCHYARD_SHUTDOWN_TIMEOUT_MS', 10_000),
    requestTimeoutMs: milliseconds(env, 'SWITCHYARD_REQUEST_TIMEOUT_MS', 30_000),
    headersTimeoutMs: milliseconds(env, 'SWITCHYARD_HEADERS_TIMEOUT_MS', 10_000),
    startupMs: milliseconds(env, 'SWITCHYARD_STARTUP_TIMEOUT_MS', 30_000),
    workerStableMs: milliseconds(env, 'SWITCHYARD_WORKER_STABLE_MS', 10_000),
  };
}

/**
 * @param {Record<string, string | undefined>} env
 * @param {string} name
 * @param {number} fallback
 */
function milliseconds(env, name, fallback) {
  const text = env[name]?.trim();
  if (!text) return fallback;
  if (!/^\d+$/.test(text) || Number(text) === 0) {
    throw new Error(`${name} must be a whole number of milliseconds above 0, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

/**
 * What to tell the user when the server cannot listen, or `undefined` for an error that is a bug.
 * @param {NodeJS.ErrnoException} error
 * @param {number} port
 * @param {string | undefined} host
 */
export function listenErrorMessage(error, port, host) {
  if (error.code === 'EADDRINUSE') {
    return `Port ${port} is already in use (${host ?? 'all interfaces'}): stop what listens there, or pass --port.`;
  }
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
    return `Cannot listen on ${host}: no interface of this machine has that address.`;
  }
  if (error.code === 'EACCES')
    return `Port ${port} needs privileges this process does not have: pass a port above 1023.`;
  return undefined;
}

/**
 * `app`, given a connection's requests one at a time. HTTP/1.1 answers pipelined requests in
 * order, but Node hands the app each request as soon as it is parsed, and it parses all that one
 * read brings (a thousand short requests in 64 KiB); it stops reading only when answers already
 * made wait unsent, and reads on once they are under the socket's high-water mark, whether the
 * client reads or not. A client that pipelined and never read had every request rendering at
 * once (5,876 renders a second in, 600 MB; 1.4 GB with brotli), and other clients waited seconds.
 * Here a request whose answer would wait is given to the app when that answer is the one sent
 * next (its response gets the socket), and the connection is not read while requests wait: one
 * render per connection, and at most one read's worth of requests held.
 * @param {import('node:http').RequestListener} app
 * @returns {import('node:http').RequestListener}
 */
export function oneRequestAtATime(app) {
  /** @type {WeakMap<import('node:net').Socket, number>} requests waiting for their turn */
  const waiting = new WeakMap();
  /**
   * Others resume a paused socket (Node when it drains); it stays paused while requests wait.
   * Node's HTTP server starts and stops reading on 'resume' and 'pause', and 'resume' comes a
   * tick late: after a resume and a pause in one tick the socket says it is paused and is read.
   */
  const keepPaused = /** @this {import('node:net').Socket} */ function () {
    if (!waiting.get(this)) return;
    if (this.isPaused()) this.emit('pause');
    else this.pause();
  };
  return (req, res) => {
    if (res.socket) return app(req, res);
    const socket = req.socket;
    const count = waiting.get(socket);
    if (count === undefined) socket.on('resume', keepPaused);
    waiting.set(socket, (count ?? 0) + 1);
    socket.pause();
    const arrival = new AsyncResource('PIPELINED_REQUEST');
    res.once('socket', () => {
      const left = /** @type {number} */ (waiting.get(socket)) - 1;
      waiting.set(socket, left);
      if (left === 0) socket.resume();
      // In the context the request arrived in, not the one of the response that hands it the
      // socket: async-local stores (React's, Sentry's) would chain each render to the one
      // before. In the next turn of the event loop, as if it had just arrived: a response that
      // ends at once would otherwise start the next request before any other client is read.
      arrival.runInAsyncScope(setImmediate, null, app, req, res);
    });
  };
}

/**
 * The classes Node's HTTP server makes each request and response from, for an Express app: their
 * objects are born with the app's prototypes, so Express need not give them those.
 *
 * Express gives every request and response its app's prototypes (`app.request`, `app.response`)
 * with `Object.setPrototypeOf`. V8 takes an object whose prototype was changed that way for one
 * that may serve as a prototype: the hidden classes it moves through from then on are its own,
 * never shared. Each property that Express and the framework then add to a request or response
 * makes a new hidden class (14 per request, each kept until the next full collection), and
 * every property read that meets requests or responses sees a new class each time, so V8's inline
 * caches there give up (megamorphic) and go through its one shared lookup cache.
 *
 * Here the app's prototypes become those of two subclasses of Node's, in front of the ones Express
 * made (which stay in the chain, with whatever the app put on them). Objects made from these
 * classes share their hidden classes, and Express's `setPrototypeOf` finds the prototype it would
 * set and changes nothing. Measured in docs/performance.md ("Requests born with their prototype").
 * @param {{ request: object, response: object }} app an Express app, before it serves
 */
export function requestClassesFor(app) {
  class AppRequest extends IncomingMessage {}
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  class AppResponse extends ServerResponse {}
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  app.request = AppRequest.prototype;
  app.response = AppResponse.prototype;
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse };
}

/**
 * @param {import('node:http').RequestListener & { request: object, response: object }} app an Express app
 * @param {{ port: number, host: string | undefined, limits: ReturnType<typeof readServerLimits> }} options
 */
export function serve(app, { port, host, limits }) {
  const server = createServer(
    {
      ...requestClassesFor(app),
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      // Node looks for expired requests on this interval (30 s by default), which would stretch
      // both timeouts by up to that much.
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
    oneRequestAtATime(app),
  );
  server.on('error', (/** @type {NodeJS.ErrnoException} */ error) => {
    const message = listenErrorMessage(error, port, host);
    if (message === undefined) throw error;
    console.error(message);
    process.exit(1);
  });
  server.listen(port, host, () => {
    const address = /** @type {import('node:net').AddressInfo} */ (server.address());
    console.log(
      host === undefined
        ? `Switchyard serving http://localhost:${address.port} (listening on all interfaces)`
        : `Switchyard serving http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    );
  });

  /** @param {NodeJS.Signals} signal */
  const stop = (signal) => {
    console.log(`${signal}: no new connections; requests in flight have ${limits.shutdownMs} ms to finish.`);
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => {
      console.error(`Shutdown deadline passed: closing the connections still open.`);
      server.closeAllConnections();
      process.exit(1);
    }, limits.shutdownMs).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return server;
}
