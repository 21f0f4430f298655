/**
 * Real HTTP servers on 127.0.0.1 with a port the system picks, for tests that need sockets.
 * `close()` ends every connection, hanging and keep-alive ones included, so the test process
 * can exit. Nothing here listens beyond loopback.
 */
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type RequestListener,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function listenOnLoopback(listener: RequestListener): Promise<LoopbackServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** A port nothing listens on: one the system just gave out and took back. */
export async function closedPort(): Promise<number> {
  const server = await listenOnLoopback((_req, res) => res.end());
  await server.close();
  return server.port;
}

/** The whole request body, or a rejection if the client goes away first. */
export function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export interface Canary extends LoopbackServer {
  /** Every request it got, recorded on arrival; a test that expects none asserts this is empty. */
  requests: { method: string; url: string; headers: IncomingHttpHeaders }[];
}

/** A server that must never be reached: it records whatever reaches it and answers 200. */
export async function startCanary(): Promise<Canary> {
  const requests: Canary['requests'] = [];
  const server = await listenOnLoopback((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    res.end('canary');
  });
  return { ...server, requests };
}
