/**
 * Router signals over HTTP: status codes and `Location` before the
 * shell, meta tags after it, streamed loader data, and every hostile redirect target refused.
 */
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import type { SwitchyardOptions } from '../../server/options';
import { openGate, whenWaiting } from '../fixtures/gate';
import { basicApp } from './fixture-app';

function app(options: Partial<SwitchyardOptions> = {}) {
  const logger = { error: vi.fn(), info: vi.fn() };
  return { app: createApp({ modules: basicApp, logger, ...options }), logger };
}

describe('before the shell: the status says it', () => {
  test('redirect() in load is a 307 with Location', async () => {
    const res = await request(app().app).get('/signals/redirect');
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe('/photos/1');
    expect(res.text).not.toContain('never shown');
  });

  test('permanentRedirect() in load is a 308 with Location', async () => {
    const res = await request(app().app).get('/signals/redirect?permanent&to=%2Fphotos%2F9%3Fq%3D1');
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe('/photos/9?q=1');
  });

  test('page data answers a redirect with the target for the client router, never a 3xx', async () => {
    const res = await request(app().app).get('/signals/redirect?_sy=%2F');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ redirect: { location: '/photos/1', status: 307 } });
  });

  test('an allow-listed origin may be a target', async () => {
    const res = await request(app({ allowedRedirectOrigins: ['https://docs.example.com'] }).app).get(
      '/signals/redirect?to=https%3A%2F%2Fdocs.example.com%2Fguide',
    );
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe('https://docs.example.com/guide');
  });

  test.each([
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    'javascript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'https://evil.example/',
    'https://docs.example.com@evil.example/',
  ])('the hostile target %j is refused with a 400, in documents and page data', async (target) => {
    const { app: server, logger } = app({ allowedRedirectOrigins: ['https://docs.example.com'] });
    const path = `/signals/redirect?to=${encodeURIComponent(target)}`;
    for (const url of [path, `${path}&_sy=%2F`]) {
      const res = await request(server).get(url);
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('the redirect target is not a path on this site');
    }
    expect(logger.error).not.toHaveBeenCalled();
  });

  test('notFound() while rendering, outside Suspense: a 404 with the not-found page', async () => {
    const { app: server, logger } = app();
    const res = await request(server).get('/signals/render-not-found');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<h1>Fixture not found</h1>');
    expect(logger.error).not.toHaveBeenCalled();
  });

  test('notFound() from a loader below loading.tsx, settled before the shell: the not-found page', async () => {
    const { app: server, logger } = app();
    const res = await request(server).get('/signals/streamed?then=not-found-now');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<h1>Fixture not found</h1>');
    // Not the loading state, which nothing would ever fill for a browser without JavaScript.
    expect(res.text).not.toContain('id="streamed-loading"');
    expect(logger.error).not.toHaveBeenCalled();
  });

  test('redirect() while rendering, outside Suspense: a 307 with Location', async () => {
    const { app: server, logger } = app();
    const res = await request(server).get('/signals/render-redirect');
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe('/photos/2');
    expect(logger.error).not.toHaveBeenCalled();
  });
});

describe('after the shell: streamed loader data and meta tags', () => {
  const servers: { close(): void }[] = [];
  afterEach(() => servers.splice(0).forEach((s) => s.close()));

  /** Requests `path`, reads until the shell is in, opens the gate, then reads the rest. */
  async function streamed(path: string, options: Partial<SwitchyardOptions> = {}) {
    const { app: server, logger } = app(options);
    const http = server.listen(0, '127.0.0.1');
    servers.push(http);
    await new Promise((resolve) => http.once('listening', resolve));
    const waiting = whenWaiting('streamed');
    const res = await fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}${path}`);
    await waiting;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let shell = '';
    while (!shell.includes('id="streamed-loading"')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before the shell: ${shell}`);
      shell += decoder.decode(value, { stream: true });
    }
    openGate('streamed');
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += decoder.decode(chunk.value, { stream: true });
    }
    return { status: res.status, shell, rest, logger };
  }

  test('the shell and the loading state arrive before the data, which streams in after', async () => {
    const { status, shell, rest } = await streamed('/signals/streamed');
    expect(status).toBe(200);
    expect(shell).not.toContain('streamed data arrived');
    expect(shell).toContain('"streamed":["signals/streamed#pageData"]');
    expect(rest).toContain('<p id="streamed-data">streamed data arrived</p>');
    expect(rest).toContain(
      '(self.__SY_S||=[]).push(["signals/streamed#pageData",{"value":{"text":"streamed data arrived"}}])',
    );
  });

  test('streamed data cannot break out of its script and round-trips', async () => {
    const { rest } = await streamed('/signals/streamed?then=hostile');
    const script = /push\((\[.*?\])\)<\/script>/s.exec(rest)![1]!;
    expect(script).not.toMatch(/<|\u2028/);
    expect(JSON.parse(script)).toEqual([
      'signals/streamed#pageData',
      { value: { text: '</script><script>window.__pwned=1</script><!-- \u2028 end' } },
    ]);
    expect(rest).not.toContain('<script>window.__pwned');
  });

  test('notFound() after the shell: still 200, with a noindex meta tag', async () => {
    const { status, rest, logger } = await streamed('/signals/streamed?then=not-found');
    expect(status).toBe(200);
    expect(rest).toContain('<meta name="robots" content="noindex">');
    expect(rest).toContain('{"signal":{"kind":"not-found"}}');
    expect(logger.error).not.toHaveBeenCalled();
  });

  test('redirect() after the shell: a meta refresh with delay 1, for the client router to follow', async () => {
    const { status, rest, logger } = await streamed('/signals/streamed?then=redirect');
    expect(status).toBe(200);
    expect(rest).toContain('<meta http-equiv="refresh" content="1;url=/photos/3">');
    expect(rest).toContain('{"signal":{"kind":"redirect","location":"/photos/3","status":307}}');
    expect(logger.error).not.toHaveBeenCalled();
  });

  test('permanentRedirect() after the shell: a meta refresh with delay 0', async () => {
    const { rest } = await streamed('/signals/streamed?then=permanent');
    expect(rest).toContain('<meta http-equiv="refresh" content="0;url=/photos/3">');
  });

  test('a hostile target after the shell gets no meta refresh', async () => {
    const { rest, logger } = await streamed('/signals/streamed?then=hostile-redirect');
    expect(rest).not.toContain('http-equiv="refresh"');
    expect(logger.error.mock.calls[0]![0]).toContain('refused redirect target');
  });

  test('an error after the shell sends its digest only, the same as in the server log', async () => {
    const { rest, logger } = await streamed('/signals/streamed?then=throw');
    // Only our own script is checked here: React's development build (this test's) adds the
    // message to its own instruction; its production build sends the digest alone.
    const ours = rest.match(/\(self\.__SY_S\|\|=\[\]\)\.push\(.*?\)<\/script>/g)!;
    expect(ours).toHaveLength(1);
    expect(ours[0]).not.toContain('secret failure');
    const digest = /\{"digest":"([0-9a-f]{10})"\}/.exec(ours[0]!)?.[1];
    expect(digest).toBeDefined();
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0]![0]).toContain(`digest ${digest}`);
  });
});

test('a render cut by its deadline settles the data still streaming as an error, so no browser waits forever', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const { app: server, logger } = app({ renderDeadlineMs: 5_000 });
  const http = server.listen(0, '127.0.0.1');
  try {
    await new Promise((resolve) => http.once('listening', resolve));
    const waiting = whenWaiting('streamed');
    const res = await fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}/signals/streamed`);
    await waiting;
    const body = res.text();
    vi.advanceTimersByTime(5_000);
    const html = await body;
    expect(html).toContain('id="streamed-loading"');
    const digest = /push\(\["signals\/streamed#pageData",\{"digest":"([0-9a-f]{10})"\}\]\)/.exec(html)?.[1];
    expect(digest).toBeDefined();
    // The page says "see the server logs": they have it.
    expect(logger.error.mock.calls.map((c) => c[0])).toContainEqual(
      expect.stringContaining(`digest ${digest}`),
    );
  } finally {
    openGate('streamed'); // lets the loader finish; its late answer is never written
    vi.useRealTimers();
    http.close();
  }
});

test.each([
  ['now', '{"value":{"text":"streamed data, there at once"}}'],
  ['throw-now', '{"digest":'],
])('a streamed loader that settled before the render (%s) still sends its outcome', async (then, payload) => {
  const res = await request(app().app).get(`/signals/streamed?then=${then}`);
  expect(res.status).toBe(200);
  expect(res.text).toContain(`push(["signals/streamed#pageData",${payload}`);
});
