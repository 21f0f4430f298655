/**
 * The per-client limit on server actions: a burst past it is answered 429 with `Retry-After`
 * before the body is read, other clients go on, the budget comes back with time (a clock passed
 * in, never the wall clock), and the table of clients stays bounded.
 */
import request from 'supertest';
import { describe, expect, test, vi } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { createApp } from '../../server/create-app';
import { clientKey, createRateLimiter } from '../../server/actions/rate-limit';
import { withoutPort } from '../../server/http/request-url';
import { ACTION_HEADER, actionUrl } from '../../shared/actions';
import { ACTION_RATE_LIMIT } from '../../shared/constants';
import { basicApp } from './fixture-app';

describe('createRateLimiter', () => {
  test('max calls at once, then the seconds until the next; refilled as time passes', () => {
    const limiter = createRateLimiter({ max: 3, windowMs: 3_000 });
    expect([0, 0, 0].map(() => limiter.take('a', 0))).toEqual([0, 0, 0]);
    expect(limiter.take('a', 0)).toBe(1);
    expect(limiter.take('b', 0)).toBe(0);
    expect(limiter.take('a', 999)).toBe(1);
    expect(limiter.take('a', 1_000)).toBe(0);
    expect(limiter.take('a', 10_000)).toBe(0);
  });

  test('holds at most maxClients clients, forgetting the one seen longest ago', () => {
    const limiter = createRateLimiter({ max: 1, windowMs: 60_000 }, 100);
    for (let i = 0; i < 1_000; i++) limiter.take(`client-${i}`, 0);
    expect(limiter.size).toBe(100);
    expect(limiter.take('client-999', 0)).toBeGreaterThan(0);
  });
});

describe('server actions from one client', () => {
  const id = actionId('basic/actions.ts', 'echo');
  const actions = { [id]: () => import('../fixtures/basic/actions').then((m) => m.echo) };
  const { max } = ACTION_RATE_LIMIT;

  function server(trustProxy: boolean | number = false) {
    let now = 0;
    const app = createApp({
      modules: basicApp,
      actions,
      now: () => now,
      actionOrigins: { trustProxy },
      logger: { error: vi.fn(), info: vi.fn() },
    });
    const call = (from?: string) => {
      const req = request(app)
        .post(actionUrl(id))
        .set('host', '127.0.0.1')
        .set('origin', 'http://127.0.0.1')
        .set(ACTION_HEADER, '1')
        .set('content-type', 'application/json');
      if (from) req.set('x-forwarded-for', from);
      // A comment's worth of text, as the demo's form sends.
      return req.send(JSON.stringify({ args: ['x'.repeat(500)] }));
    };
    return { call, advance: (ms: number) => (now += ms) };
  }

  test(`100 calls at once: ${max} are served, the rest are 429 with Retry-After`, async () => {
    const { call, advance } = server();
    const statuses: number[] = [];
    let refused: request.Response | undefined;
    for (let i = 0; i < 100; i++) {
      const res = await call();
      statuses.push(res.status);
      if (res.status === 429) refused ??= res;
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - max);
    expect(refused?.headers['retry-after']).toBe('1');
    expect(refused?.text).toMatch(/^Too Many Requests: at most 30 actions per 10 s from one client/);
    advance(ACTION_RATE_LIMIT.windowMs);
    expect((await call()).status).toBe(200);
  });

  test('a forged X-Forwarded-For does not make a new client unless the proxy is trusted', async () => {
    const direct = server(false);
    for (let i = 0; i < max; i++) await direct.call(`10.0.0.${i}`);
    expect((await direct.call('10.9.9.9')).status).toBe(429);

    const proxied = server(true);
    for (let i = 0; i < max; i++) await proxied.call('203.0.113.7');
    expect((await proxied.call('203.0.113.7')).status).toBe(429);
    // The proxy's own entry is the last one: what the client put before it changes nothing.
    expect((await proxied.call('10.9.9.9, 203.0.113.7')).status).toBe(429);
    expect((await proxied.call('203.0.113.8')).status).toBe(200);
  });

  test('behind a CDN and a load balancer (2 proxies), the client is what the CDN saw, whatever it forges', async () => {
    // The client sends its own X-Forwarded-For; the CDN appends the client's address, the load
    // balancer the CDN's (the socket's peer is the load balancer).
    const via = (client: string, cdn: string, forged?: string) =>
      [forged, client, cdn].filter(Boolean).join(', ');
    const proxied = server(2);
    for (let i = 0; i < max; i++) {
      // A new forged address every call, and calls through two CDN nodes: one client still.
      const res = await proxied.call(via('203.0.113.7', `198.51.100.${i % 2}`, `10.0.0.${i}`));
      expect(res.status).toBe(200);
    }
    expect((await proxied.call(via('203.0.113.7', '198.51.100.1', '10.9.9.9'))).status).toBe(429);
    expect((await proxied.call(via('203.0.113.7', '198.51.100.1', '10.9.9.9, 10.8.8.8'))).status).toBe(429);
    // Another client through the same CDN node is another client.
    expect((await proxied.call(via('203.0.113.8', '198.51.100.1'))).status).toBe(200);

    // One hop trusted there, as `true` always meant, every client is the CDN node.
    const oneHop = server(true);
    for (let i = 0; i < max; i++) await oneHop.call(via(`203.0.113.${i}`, '198.51.100.1'));
    expect((await oneHop.call(via('203.0.113.200', '198.51.100.1'))).status).toBe(429);
  });

  test('a list shorter than the proxies trusted gives its first entry; none gives the socket', async () => {
    const proxied = server(3);
    for (let i = 0; i < max; i++) await proxied.call('203.0.113.7, 198.51.100.1');
    expect((await proxied.call('203.0.113.7')).status).toBe(429);
    expect((await proxied.call('203.0.113.8, 198.51.100.1')).status).toBe(200);
    for (let i = 0; i < max; i++) await proxied.call();
    expect((await proxied.call()).status).toBe(429);
  });

  test('a trustProxy that is no count of proxies stops createApp, naming it', () => {
    for (const trustProxy of [-1, 1.5, Number.NaN]) {
      expect(() => createApp({ modules: basicApp, actionOrigins: { trustProxy } })).toThrow(
        /actionOrigins\.trustProxy must be true, false or the number of proxies/,
      );
    }
  });

  test('a new IPv6 address for every call from one /64 network is one client; another /64 is not', async () => {
    const proxied = server(true);
    for (let i = 0; i < max; i++)
      expect((await proxied.call(`2001:db8:0:7::${(i + 1).toString(16)}`)).status).toBe(200);
    expect((await proxied.call('2001:db8:0:7:a:b:c:d')).status).toBe(429);
    expect((await proxied.call('2001:db8:0:8::1')).status).toBe(200);
  });
  test('a proxy that writes the source port: a new port on every call is still one client', async () => {
    const proxied = server(1);
    for (let i = 0; i < max; i++) expect((await proxied.call(`203.0.113.7:${51234 + i}`)).status).toBe(200);
    expect((await proxied.call('203.0.113.7:60000')).status).toBe(429);
    expect((await proxied.call('203.0.113.7')).status).toBe(429);
    // The same through two proxies, the first of which wrote the port.
    const twoHops = server(2);
    for (let i = 0; i < max; i++) await twoHops.call(`203.0.113.7:${40000 + i}, 198.51.100.1`);
    expect((await twoHops.call('203.0.113.7:1, 198.51.100.1')).status).toBe(429);

    for (let i = 0; i < max; i++)
      expect((await proxied.call(`[2001:db8:0:9::1]:${443 + i}`)).status).toBe(200);
    expect((await proxied.call('[2001:db8:0:9::2]')).status).toBe(429);
    expect((await proxied.call('2001:db8:0:9::3')).status).toBe(429);
    // Another client is still another client.
    expect((await proxied.call('203.0.113.8:51234')).status).toBe(200);
  });
});

describe('withoutPort', () => {
  test.each([
    ['203.0.113.7:51234', '203.0.113.7'],
    ['203.0.113.7', '203.0.113.7'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['[2001:db8::1]', '2001:db8::1'],
    ['2001:db8::1', '2001:db8::1'],
    ['::1', '::1'],
    ['::ffff:203.0.113.7', '::ffff:203.0.113.7'],
    ['not an address', 'not an address'],
  ])('%s is %s', (entry, address) => {
    expect(withoutPort(entry)).toBe(address);
  });
});

describe('clientKey', () => {
  test.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['2001:db8:0:7::1', '2001:db8:0:7::/64'],
    ['2001:0db8:0000:0007:ffff:1:2:3', '2001:db8:0:7::/64'],
    ['2001:db8::7:1:2:3', '2001:db8:0:0::/64'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['2001:db8:1::1.2.3.4', '2001:db8:1:0::/64'],
    ['not an address', 'not an address'],
  ])('%s counts as %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});
