/**
 * The `Host` check against what WHATWG URL parsing accepts, since the loader's `request` is built
 * from it: a Host the parser would refuse is the client's error (a 400 with a plain message),
 * never a 500, a log line or an error report; every Host it accepts is served.
 */
import request from 'supertest';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import { isHost } from '../../server/http/request-url';
import { basicApp } from './fixture-app';

const logger = { error: vi.fn(), info: vi.fn() };
const reporter = { report: vi.fn() };
const app = createApp({ modules: basicApp, logger, reporter });

beforeEach(() => vi.clearAllMocks());
afterEach(() => {
  expect(logger.error).not.toHaveBeenCalled();
  expect(reporter.report).not.toHaveBeenCalled();
});

// `/photos/1`'s loader reads `request`; `?_sy=` asks for the same page's data.
const targets = ['/photos/1', '/photos/1?_sy=%2Fphotos%2F1'];

test.each([
  // Each of these passed a character check and then made `new URL` throw.
  ['1.2.3.4.5', 'an IPv4 address with five parts'],
  ['1.2.3.256', 'an IPv4 part above 255'],
  ['999999999999', 'a number above 2³²'],
  ['a.example.1', 'a name whose last label is a number'],
  ['xn--zz.example', 'a label that is not punycode'],
  ['[1:2:3]', 'an IPv6 address with three parts'],
  ['[:]', 'an IPv6 address with no parts'],
  ['[1.2.3.4]', 'an IPv4 address in brackets'],
  ['[fe80::1%25eth0]', 'an IPv6 zone'],
  ['a.example:99999', 'a port above 65535'],
  // These were refused before, and must stay refused.
  ['', 'empty'],
  ['a b.example', 'a space'],
  ['evil.example@a.example', 'an @'],
  ['user:pass@a.example', 'user info'],
  ['a.example/evil', 'a path'],
  ['a.example\\evil', 'a backslash'],
  ['a.example?x', 'a query'],
  ['a.example#x', 'a fragment'],
  ['a.example:http', 'a port that is not a number'],
  ['a.example:1:2', 'two ports'],
  ['::1', 'an IPv6 address without brackets'],
  ['[::1', 'an unclosed bracket'],
  ['a%2fb.example', 'an escaped slash'],
])('Host %j (%s) is a 400, not an error report', async (host) => {
  for (const target of targets) {
    const answer = await request(app).get(target).set('Host', host);
    expect(answer.status).toBe(400);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.text).toBe(
      'Bad Request: the Host header is not a host name or address with an optional port.',
    );
  }
});

test.each([
  ['localhost'],
  ['localhost:3000'],
  ['127.0.0.1:3000'],
  ['1.2.3.4.'],
  ['[::1]:3000'],
  ['[::ffff:1.2.3.4]'],
  ['A.Example'],
  ['my_app:3000'],
  ['a.example:'],
  ['bücher.example'],
  ['xn--bcher-kva.example:8080'],
])('Host %j is served', async (host) => {
  for (const target of targets) {
    const answer = await request(app).get(target).set('Host', host);
    expect(answer.status).toBe(200);
  }
});

// No HTTP parser lets these through in a header, but a URL parser would drop or refuse them.
test.each([['a.example\x01'], ['a.example\x7f'], ['a\tb.example'], ['a.example\u0085']])(
  'isHost(%j) is false',
  (host) => {
    expect(isHost(host)).toBe(false);
    expect(isHost('a.example')).toBe(true);
  },
);
