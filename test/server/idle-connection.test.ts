/**
 * A keep-alive connection left idle after a document holds nothing of that document's render.
 * Node arms the socket's idle timer as the response finishes, and a timer keeps the async context
 * it was made in: ended inside React's render, it would keep the render, the page's data and the
 * response until the connection's next request — one render per idle connection.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import { basicApp } from './fixture-app';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const responses: WeakRef<http.ServerResponse>[] = [];
const app = createApp({ modules: basicApp, buildId: 'b1', logger: { error: vi.fn(), info: vi.fn() } });
const server = http.createServer((req, res) => {
  responses.push(new WeakRef(res));
  // Node caches the Date header for a second, on a timer made in the request that asked first:
  // that request would be kept for up to a second whatever the framework does.
  res.sendDate = false;
  app(req, res);
});
let port: number;
beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(resolve));
});

/** A document over a connection of its own that stays open (and idle) once it has come. */
function getKeptOpen(path: string, headers: Record<string, string>, agent: http.Agent) {
  return new Promise<number>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      })
      .on('error', reject);
  });
}

test('an idle keep-alive connection keeps no finished response (and so no render), plain or compressed', async () => {
  const agents = [new http.Agent({ keepAlive: true }), new http.Agent({ keepAlive: true })];
  expect(await getKeptOpen('/', {}, agents[0]!)).toBe(200);
  expect(await getKeptOpen('/', { 'accept-encoding': 'br' }, agents[1]!)).toBe(200);
  expect(responses).toHaveLength(2);
  // Both connections are still open, waiting for a next request.
  expect(agents.map((agent) => Object.values(agent.freeSockets).flat().length)).toEqual([1, 1]);
  // A WeakRef read keeps its target until the end of the job that read it: each collection runs
  // in a turn of its own, after the turn that looked.
  const kept = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    await new Promise((resolve) => setImmediate(resolve));
    return responses.map((ref) => ref.deref() !== undefined);
  };
  expect(await kept()).toEqual([false, false]);
  agents.forEach((agent) => agent.destroy());
});
