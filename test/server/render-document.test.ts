import { createServer } from 'node:http';
import { connect } from 'node:net';
import type { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import express from 'express';
import request from 'supertest';
import { describe, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import type { RenderOutcome, SwitchyardOptions } from '../../server/options';
import { SERVER_ERROR_MESSAGE } from '../../server/render/error-document';
import { whenHangReached } from '../fixtures/hang';
import { whenLoaderSignal } from '../fixtures/loader-signal';
import { basicApp } from './fixture-app';

function app(options: Partial<SwitchyardOptions> = {}) {
  const logger = { error: vi.fn(), info: vi.fn() };
  return { app: createApp({ modules: basicApp, logger, ...options }), logger };
}

describe('document requests', () => {
  test('a page streams with 200, its layout, and the state script', async () => {
    const res = await request(app().app).get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toMatch(/^<!DOCTYPE html><html lang="en"><head>/);
    expect(res.text).toContain('<h1>Home</h1>');
    expect(res.text).toContain('<a href="/photos/1">Photo 1</a>');
    expect(res.text).toContain('self.__SWITCHYARD__=');
  });

  test('load gets params, search params and the request; its result is the data prop', async () => {
    const res = await request(app().app).get('/photos/7?q=sun').set('user-agent', 'fixture-agent');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1>Photo <!-- -->7</h1>');
    expect(res.text).toContain(
      JSON.stringify({ id: '7', q: 'sun', agent: 'fixture-agent' }).replaceAll('"', '&quot;'),
    );
  });

  test.each([
    ['/tags/a/b', 'Tags <!-- -->a &gt; b'],
    // One segment whose value has a slash in it: the catch-all gets ['a/b'].
    ['/tags/a%2fb', 'Tags <!-- -->a/b'],
    ['/tags/a%2Fb/c', 'Tags <!-- -->a/b &gt; c'],
    ['/docs', 'Docs [<!-- -->]'],
    ['/docs/x/y', 'Docs [<!-- -->x,y<!-- -->]'],
    ['/photos/caf%C3%A9/', 'Photo <!-- -->café'],
  ])('%s renders its route', async (url, html) => {
    const res = await request(app().app).get(url);
    expect(res.status).toBe(200);
    expect(res.text).toContain(html);
  });

  test('an unknown URL is a 404 with the root not-found inside the root layout', async () => {
    const res = await request(app().app).get('/no/such/page');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<title>Fixture</title>');
    expect(res.text).toContain('<h1>Fixture not found</h1>');
    // The root layout renders with its own data, as on every other page (it may show who is signed in).
    expect(res.text).toContain('"layoutData":{"site":"fixture"}');
  });

  test('notFound() in load is a 404 with the not-found page', async () => {
    const res = await request(app().app).get('/photos/404');
    expect(res.status).toBe(404);
    expect(res.text).toContain('<h1>Fixture not found</h1>');
    expect(res.text).not.toContain('Photo');
  });

  test('a malformed percent escape is a 400 with a clear message, never a 500', async () => {
    for (const url of ['/photos/%E0%A4%A', '/%', '/tags/%zz/a']) {
      const res = await request(app().app).get(url);
      expect(res.status).toBe(400);
      expect(res.text).toBe('Bad Request: the URL path has a malformed percent-encoding.');
    }
  });

  test('other methods are a 405', async () => {
    const res = await request(app().app).delete('/');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('production hygiene', () => {
  test('security headers, no X-Powered-By, a CSP with a nonce used by the inline script', async () => {
    const res = await request(app().app).get('/');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    const csp = res.headers['content-security-policy'] as string;
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toBe(
      `default-src 'self'; script-src 'self' 'nonce-${nonce!}'; style-src 'self' 'unsafe-inline'; ` +
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; " +
        "form-action 'self'; frame-ancestors 'none'",
    );
    expect(res.text).toMatch(
      new RegExp(`<script nonce="${nonce!.replace(/[+/=]/g, '\\$&')}"[^>]*>self.__SWITCHYARD__=`),
    );
    const again = await request(app().app).get('/');
    expect(again.headers['content-security-policy']).not.toBe(csp);
  });

  test('a Vary set in front of the app (CORS, in development Vite) keeps its fields', async () => {
    const front = express();
    front.use((_req, res, next) => {
      res.setHeader('vary', 'Origin');
      next();
    });
    front.use(app().app);
    const res = await request(front).get('/');
    expect(res.status).toBe(200);
    expect(res.headers.vary).toBe('Origin, accept-encoding');
    expect((await request(app().app).get('/')).headers.vary).toBe('accept-encoding');
  });

  test('a load error is a 500 with the fallback text and a digest, never the message or stack', async () => {
    const { app: server, logger } = app();
    const res = await request(server).get('/lab/throws');
    expect(res.status).toBe(500);
    expect(res.text).toContain(SERVER_ERROR_MESSAGE);
    expect(res.text).not.toContain('private detail');
    expect(res.text).not.toContain('.ts:');
    const digest = /Digest: <code>([0-9a-f]+)<\/code>/.exec(res.text)?.[1];
    expect(digest).toMatch(/^[0-9a-f]{10}$/);
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error.mock.calls[0]![0]).toContain(`digest ${digest}`);
  });
});

describe('serialised data', () => {
  test('hostile loader data is escaped in the page and parses back byte-exactly', async () => {
    const res = await request(app().app).get('/lab/secret');
    const script = /self\.__SWITCHYARD__=(.*?)<\/script>/s.exec(res.text)![1]!;
    expect(script).not.toMatch(/<|\u2028|\u2029/);
    const state = JSON.parse(script) as { segments: { pageData?: { payload: string } }[] };
    expect(state.segments.at(-1)!.pageData!.payload).toBe(
      '</script><script>window.__pwned=1</script><!-- \u2028\u2029\u0000 end',
    );
    // The only <script> elements are the ones the framework wrote.
    expect(res.text.match(/<script/g)).toHaveLength(1);
  });
});

describe('render lifetime', () => {
  function listen(options: Partial<SwitchyardOptions>) {
    const ended: RenderOutcome[] = [];
    let onEnd: (() => void) | undefined;
    const { app: server } = app({
      ...options,
      observer: {
        renderEnded: (outcome) => {
          ended.push(outcome);
          onEnd?.();
        },
      },
    });
    const http = server.listen(0, '127.0.0.1');
    const whenEnded = () => new Promise<void>((resolve) => (onEnd = resolve));
    return { server, http, ended, whenEnded };
  }

  test('a page with nothing left to stream reaches the socket in one write: head, shell and end', async () => {
    const { http } = listen({});
    await new Promise((resolve) => http.once('listening', resolve));
    // The writes Node hands the socket, one per system call.
    const writes: number[] = [];
    http.on(
      'connection',
      (socket: Writable & { _write: Writable['_write']; _writev?: Writable['_writev'] }) => {
        const write = socket._write.bind(socket);
        const writev = socket._writev?.bind(socket);
        socket._write = (chunk, encoding, callback) => {
          writes.push(1);
          write(chunk, encoding, callback);
        };
        if (writev)
          socket._writev = (chunks, callback) => {
            writes.push(chunks.length);
            writev(chunks, callback);
          };
      },
    );
    // Uncompressed: a compressor's output reaches the socket as zlib's thread pool gives it.
    const res = await fetch(`http://127.0.0.1:${(http.address() as AddressInfo).port}/`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<h1>Home</h1>');
    expect(writes).toHaveLength(1);
    http.close();
  });

  test('a client that disconnects before the shell aborts the render; nothing is left running', async () => {
    const { server, http, ended, whenEnded } = listen({});
    await new Promise((resolve) => http.once('listening', resolve));
    const reached = whenHangReached();
    const ending = whenEnded();
    const socket = connect((http.address() as AddressInfo).port, '127.0.0.1');
    socket.write('GET /lab/disconnect HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    await reached;
    expect(server.locals.stats).toEqual({ activeRenders: 1, pendingDeadlines: 1 });
    socket.destroy();
    await ending;
    expect(ended).toEqual(['aborted']);
    expect(received).toBe('');
    expect(server.locals.stats).toEqual({ activeRenders: 0, pendingDeadlines: 0 });
    http.close();
  });

  test('a client that disconnects aborts the signal of the request its loader reads', async () => {
    const { server, http, ended, whenEnded } = listen({});
    await new Promise((resolve) => http.once('listening', resolve));
    const signal = whenLoaderSignal();
    const ending = whenEnded();
    const socket = connect((http.address() as AddressInfo).port, '127.0.0.1');
    socket.write('GET /lab/loader-signal HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await signal.started;
    socket.destroy();
    expect(await signal.aborted).toEqual(new Error('render aborted'));
    await ending;
    expect(ended).toEqual(['aborted']);
    expect(server.locals.stats).toEqual({ activeRenders: 0, pendingDeadlines: 0 });
    http.close();
  });

  test('a render past its deadline is aborted and ends with the loading fallback', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const { server, http, ended, whenEnded } = listen({ renderDeadlineMs: 5_000 });
      const reached = whenHangReached();
      const ending = whenEnded();
      const port = await new Promise<number>((resolve) =>
        http.once('listening', () => resolve((http.address() as AddressInfo).port)),
      );
      const response = fetch(`http://127.0.0.1:${port}/lab/slow`);
      await reached;
      const res = await response;
      expect(res.status).toBe(200); // the shell went out before the deadline
      const body = res.text();
      vi.advanceTimersByTime(5_000);
      const html = await body;
      await ending;
      expect(html).toContain('<p id="loading">Loading…</p>');
      expect(html).not.toContain('never');
      expect(ended).toEqual(['timeout']);
      expect(server.locals.stats).toEqual({ activeRenders: 0, pendingDeadlines: 0 });
      http.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('what a finished response holds', () => {
  // React's pipe() listens on its destination and never stops; a response that the collector
  // keeps a while would keep the whole render (page state, data, scripts) alive with it.
  test.each(['identity', 'gzip'])(
    'a page response (%s) keeps none of the render’s listeners once it has closed',
    async (encoding) => {
      const { app: server } = app();
      // What React wrote into: the response, or the compressor piped into it.
      let destination: Writable | undefined;
      let closed!: Promise<void>;
      const http = createServer((req, res) => {
        destination = res;
        res.once('pipe', (compressor: Writable) => (destination = compressor));
        closed = new Promise((resolve) => res.once('close', () => setImmediate(resolve)));
        server(req, res);
      }).listen(0, '127.0.0.1');
      await new Promise((resolve) => http.once('listening', resolve));
      const { port } = http.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { 'accept-encoding': encoding } });
      expect(res.headers.get('content-encoding')).toBe(encoding === 'gzip' ? 'gzip' : null);
      expect(await res.text()).toContain('<h1>Home</h1>');
      await closed;
      http.close();
      expect(destination!.listenerCount('drain')).toBe(0);
      expect(destination!.listenerCount('error')).toBe(0);
      // The render's own bookkeeping stays on the response; nothing of React's does.
      expect(destination!.listenerCount('close')).toBe(encoding === 'gzip' ? 0 : 1);
    },
  );

  // A second `close` listener turns Node's list of them into an array, made at one place for every
  // emitter; once most arrays made there outlive a young collection (they live as long as a
  // response), V8 allocates them straight in the old generation, where a dead one keeps its
  // listeners, and through them the whole request, alive until the next full collection.
  test('an uncompressed page response has one close listener while it streams', async () => {
    const { app: server } = app();
    let closeListeners = -1;
    let finished!: Promise<void>;
    const http = createServer((req, res) => {
      finished = new Promise((resolve) =>
        res.once('finish', () => {
          closeListeners = res.listenerCount('close');
          resolve();
        }),
      );
      server(req, res);
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => http.once('listening', resolve));
    const { port } = http.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { 'accept-encoding': 'identity' } });
    expect(await res.text()).toContain('<h1>Home</h1>');
    await finished;
    http.close();
    expect(closeListeners).toBe(1);
  });
});
