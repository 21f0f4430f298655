/**
 * Serves a production app: its own request and header timeouts (not Node's 300 s and 60 s), a
 * clear message and exit code 1 when the address is taken, and a shutdown on SIGTERM or SIGINT
 * that stops accepting, lets requests in flight finish, and exits by a deadline whatever a
 * client does (a body trickled two bytes at a time included).
 */
import { createServer } from 'node:http';
import { setTimeout } from 'node:timers';

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
 * @param {import('node:http').RequestListener} app
 * @param {{ port: number, host: string | undefined, limits: ReturnType<typeof readServerLimits> }} options
 */
export function serve(app, { port, host, limits }) {
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      // Node looks for expired requests on this interval (30 s by default), which would stretch
      // both timeouts by up to that much.
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    },
    app,
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
