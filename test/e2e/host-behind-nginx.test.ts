/**
 * Malformed `Host` headers through the real nginx, configured as docs/deploying.md shows: nginx
 * passes `1.2.3.4.5`, `[1:2:3]` and their kind on to the server, which answers 400 without a
 * line in its error log (where a stack would mean a report to Sentry too). A good Host is served.
 * The page asked for has a loader that reads `request`, which is built from the Host.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { nginxBin, startNginx, type RunningNginx } from '../helpers/nginx';
import { freePort } from '../helpers/postgres';
import { rawRequest } from '../helpers/raw-request';
import { skipWithoutChromium, startServer, type RunningServer } from './harness';

const nginx = skipWithoutChromium ? undefined : nginxBin();

describe.skipIf(!nginx)('a malformed Host behind nginx', () => {
  let server: RunningServer;
  let proxy: RunningNginx;
  let proxyPort: number;

  beforeAll(async () => {
    server = await startServer('demo');
    proxyPort = await freePort();
    proxy = await startNginx(nginx!, proxyPort, [new URL(server.url).host]);
  }, 60_000);
  afterAll(async () => {
    await proxy?.stop();
    await server?.stop('SIGKILL');
  });

  const get = (host: string) =>
    rawRequest(
      proxyPort,
      `GET /lab/slow?delay=0 HTTP/1.1\r\nHost: ${host}\r\nConnection: close`,
      () => undefined,
    );

  test.each([['1.2.3.4.5'], ['[1:2:3]'], ['[:]'], ['a.example:99999'], ['1.2.3.256'], ['xn--zz.example']])(
    'Host %s is a 400, and nothing is logged',
    async (host) => {
      expect((await get(host)).status).toBe(400);
      expect(server.logs.join('')).not.toMatch(/Failed to parse URL|\[switchyard\]|^\s+at /m);
    },
  );

  test('a good Host is served', async () => {
    expect((await get(`localhost:${proxyPort}`)).status).toBe(200);
  });
});
