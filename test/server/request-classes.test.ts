/**
 * `requestClassesFor` (bin/serve.js): the production server makes each request and response with
 * its Express app's prototypes already, so Express's own `Object.setPrototypeOf` changes nothing
 * and requests share their hidden classes. What the app put on `app.request` and `app.response`
 * stays reachable, and what it adds later too.
 */
import { execFile } from 'node:child_process';
import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import express from 'express';
import { afterEach, expect, test } from 'vitest';
import { requestClassesFor } from '../../bin/serve.js';
import { FRAMEWORK_ROOT } from '../../server/vite/vite-config';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server?.closeAllConnections();
  server = undefined;
});

async function listen(app: express.Express): Promise<string> {
  server = createServer(requestClassesFor(app), app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('requests and responses are born with the app’s prototypes, and keep what the app added to them', async () => {
  const app = express();
  (app.request as unknown as { greeting: string }).greeting = 'set before serving';
  (app.response as unknown as { sendGreeting(): void }).sendGreeting = function (this: express.Response) {
    const late = (this as unknown as { late: string }).late;
    this.send(`${(this.req as unknown as { greeting: string }).greeting}; ${late}`);
  };
  const born: boolean[] = [];
  const url = await listen(app);
  server!.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    born.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
  });
  (app.response as unknown as { late: string }).late = 'added after';
  app.get('/', (req, res) => {
    expect(req).toBeInstanceOf(IncomingMessage);
    expect(res).toBeInstanceOf(ServerResponse);
    expect(req.app).toBe(app);
    (res as unknown as { sendGreeting(): void }).sendGreeting();
  });

  const answer = await fetch(`${url}/`);
  expect(answer.status).toBe(200);
  expect(await answer.text()).toBe('set before serving; added after');
  expect(born).toEqual([true]);
});

/**
 * Hidden classes are V8's, seen only through its natives syntax: a Node of its own runs the
 * server and compares the twelfth and thirteenth request and response once Express has handled
 * them. Without the classes each request has hidden classes of its own.
 */
test('requests share their hidden classes once Express has handled them', { timeout: 60_000 }, async () => {
  const script = `
    import { createServer } from 'node:http';
    import express from 'express';
    import { requestClassesFor } from './bin/serve.js';
    const app = express();
    const seen = [];
    app.get('/', (req, res) => { res.locals.n = seen.length; seen.push([req, res]); res.send('ok'); });
    const server = createServer(requestClassesFor(app), app);
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    for (let i = 0; i < 13; i++) await (await fetch('http://127.0.0.1:' + server.address().port + '/')).text();
    const [[req1, res1], [req2, res2]] = seen.slice(-2);
    console.log(JSON.stringify({ requests: %HaveSameMap(req1, req2), responses: %HaveSameMap(res1, res2) }));
    server.close();
    server.closeAllConnections();
  `;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--allow-natives-syntax', '--input-type=module', '--eval', script],
    { cwd: FRAMEWORK_ROOT, timeout: 50_000 },
  );
  expect(JSON.parse(stdout)).toEqual({ requests: true, responses: true });
});
