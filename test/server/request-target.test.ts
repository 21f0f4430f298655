/**
 * Hostile request targets and Host headers over a real socket: a path that starts with `//` or
 * `/\` is a path on this site, never a host; a target or Host that cannot be read is a 400. None
 * of them is a 500, and none reaches the error log or the reporter.
 */
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import { parseRequestTarget } from '../../server/http/request-url';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server';
import { rawRequest } from '../helpers/raw-request';
import { basicApp } from './fixture-app';

const logger = { error: vi.fn(), info: vi.fn() };
const reporter = { report: vi.fn() };
let server: LoopbackServer;

beforeAll(async () => {
  server = await listenOnLoopback(createApp({ modules: basicApp, logger, reporter }));
});
afterAll(() => server?.close());
afterEach(() => {
  expect(logger.error).not.toHaveBeenCalled();
  expect(reporter.report).not.toHaveBeenCalled();
});

/** `GET <target>` with `extra` header lines; the helper adds a good Host unless one is given. */
const get = (target: string, extra = '') =>
  rawRequest(server.port, `GET ${target} HTTP/1.1\r\nConnection: close\r\n${extra}`, () => undefined);

test.each([
  ['//evil.example/photos/1'],
  ['/\\evil.example/photos/1'],
  ['//evil.example/photos/1?_sy=%2F'],
  ['/%2F%2Fevil.example/photos/1'],
  ['//[x/'],
  ['/\\[x/'],
])('%s is a path on this site: 404, not another host’s page', async (target) => {
  const answer = await get(target);
  expect(answer.status).toBe(404);
  expect(answer.body).not.toContain('Photo <!-- -->1');
});

test('doubled slashes elsewhere in the path are harmless: //photos//1 is photo 1', async () => {
  const answer = await get('//photos//1');
  expect(answer.status).toBe(200);
  expect(answer.body).toContain('Photo <!-- -->1');
});

test('an absolute-form target is a 400', async () => {
  const answer = await get('http://evil.example/photos/1');
  expect(answer.status).toBe(400);
  expect(answer.body).toBe('Bad Request: the request target is not a path.');
});

test.each([
  ['[', '/photos/1'],
  ['[', '/photos/1?_sy='],
  ['a b', '/'],
  ['evil.example/path', '/photos/1'],
  ['user@evil.example', '/photos/1'],
  ['', '/photos/1'],
])('Host %j is a 400 (%s)', async (host, target) => {
  const answer = await get(target, `Host: ${host}\r\n`);
  expect(answer.status).toBe(400);
  expect(answer.headers['cache-control']).toBe('no-store');
});

test('two Host headers are a 400', async () => {
  const answer = await get('/photos/1', `Host: 127.0.0.1:${server.port}\r\nHost: evil.example\r\n`);
  expect(answer.status).toBe(400);
  expect(answer.body).toBe('Bad Request: the request has more than one Host header.');
});

test('a good Host with a port, or an IPv6 address, is served', async () => {
  expect((await get('/photos/1', 'Host: localhost:3000\r\n')).status).toBe(200);
  expect((await get('/photos/1', 'Host: [::1]:3000\r\n')).status).toBe(200);
});

test('a redirect to /.//evil.example is refused (400), not sent as a Location', async () => {
  const answer = await get('/signals/redirect?to=%2F.%2F%2Fevil.example');
  expect(answer.status).toBe(400);
  expect(answer.headers.location).toBeUndefined();
  const data = await get('/signals/redirect?to=%2F..%2F%2Fevil.example&_sy=%2F');
  expect(data.status).toBe(400);
});

test('405 answers are never cached', async () => {
  const answer = await rawRequest(
    server.port,
    'PUT /photos/1 HTTP/1.1\r\nConnection: close\r\nContent-Length: 0',
    () => undefined,
  );
  expect(answer.status).toBe(405);
  expect(answer.headers['cache-control']).toBe('no-store');
});

/**
 * Most targets are read without building a URL (a plain path: no query, no `%`, no `\`, no dot
 * segment); each must read exactly as `new URL` reads it, and everything else goes through it.
 */
test.each([
  '/',
  '/photos/1',
  '/photos/1/',
  '//evil.example/photos/1',
  '/.well-known/security.txt',
  "/a-b_c.d~e!$&'()*+,;=:@f",
  '/a/../b',
  '/a/./b',
  '/a/..',
  '/%2e%2e/b',
  '/a\\b',
  '/caf%C3%A9',
  '/café',
  '/a b',
  '/a|b^c',
  '/photos/1?x=1&y',
  '/photos/1?',
  '/photos/1#top',
  '/.',
  '/..',
  '/a/.',
  '//..',
  '/...',
  '/..a',
  '/a/.%2E/b',
  '/%2E',
  '/\\evil.example/x',
  '/a\tb',
  '/a\nb',
  '/a\u0000b',
  '/a\u007fb',
  '/a"<>`{}',
])('%j reads as new URL reads it', (target) => {
  const url = new URL(`http://switchyard.invalid${target}`);
  const read = parseRequestTarget(target)!;
  expect([read.pathname, read.search, [...read.searchParams]]).toEqual([
    url.pathname,
    url.search,
    [...url.searchParams],
  ]);
});

test('every path of up to four characters from a hostile alphabet reads as new URL reads it', () => {
  const alphabet = ['.', 'a', '%', '2', 'e', '/', '\\', '?', '#', ' ', '\t', 'é'];
  let paths = ['/'];
  for (let length = 0; length < 4; length++) {
    paths = [
      ...paths,
      ...paths.filter((p) => p.length === length + 1).flatMap((p) => alphabet.map((c) => p + c)),
    ];
  }
  expect(paths.length).toBeGreaterThan(20_000);
  const differing = paths.filter((target) => {
    const url = new URL(`http://switchyard.invalid${target}`);
    const read = parseRequestTarget(target)!;
    return read.pathname !== url.pathname || read.search !== url.search;
  });
  expect(differing).toEqual([]);
});

test.each(['', 'http://x/y', 'x/y', '*'])('%j is not a path: null', (target) => {
  expect(parseRequestTarget(target)).toBeNull();
});

test('a plain path is read without building a URL; anything else with one', () => {
  expect(parseRequestTarget('/photos/1')).not.toBeInstanceOf(URL);
  expect(parseRequestTarget('/photos/../1')).toBeInstanceOf(URL);
  expect(parseRequestTarget('/photos/1?x')).toBeInstanceOf(URL);
  expect(parseRequestTarget('*')).toBeNull();
});
