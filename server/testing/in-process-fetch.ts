/**
 * `fetch` into a Node request handler in the same process, with no port and no socket: each
 * request gets a pair of connected in-memory streams, Node's HTTP client writes the request on
 * one end and Node's HTTP server parses it on the other, so the handler sees a real
 * `IncomingMessage` and writes a real `ServerResponse`. The answer is read whole before it
 * resolves. Redirects are what Node's `fetch` makes of them: followed (up to 20, a 303 and a POST's
 * 301 or 302 as a GET without body), handed back as they are (`redirect: 'manual'`) or a
 * `TypeError` (`redirect: 'error'`). One off this origin cannot be followed: it is handed back.
 *
 * Given a cookie jar, it is a browser's fetch: each hop of a redirect chain sends the jar's
 * cookies for its own URL and keeps the cookies its answer sets before the next hop goes out, so
 * a sign-in that sets its session on the way through a redirect is signed in at the end.
 * `credentials: 'omit'` leaves the jar out. A `cookie` header given goes to every hop, before
 * the jar's (a server reading a name twice takes the first).
 */
import { createServer, request as httpRequest, type IncomingMessage, type RequestListener } from 'node:http';
import { Duplex } from 'node:stream';
import type { CookieJar } from './cookie-jar.js';

export const TEST_ORIGIN = 'http://localhost';
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const BODY_HEADERS = ['content-encoding', 'content-language', 'content-location', 'content-type'];

export type InProcessFetch = (url: string, init?: RequestInit) => Promise<Response>;

export function inProcessFetch(handler: RequestListener, cookies?: CookieJar): InProcessFetch {
  // Never listens: connections are handed to it one at a time.
  const server = createServer(handler);
  return async (url, init) => {
    const first = new Request(new URL(url, TEST_ORIGIN), init);
    // Read once: a 307 or 308 sends the same body again.
    const body = first.body ? Buffer.from(await first.arrayBuffer()) : undefined;
    const { method, headers, signal } = first;
    const jar = first.credentials === 'omit' ? undefined : cookies;
    const given = headers.get('cookie');
    let request: Outgoing = { url: new URL(first.url), method, headers, body, signal };
    for (let redirects = 0; ; redirects++) {
      const path = request.url.pathname;
      const response = await exchange(server, jar ? withCookies(request, given, jar.header(path)) : request);
      jar?.store(response, path);
      if (!REDIRECTS.has(response.status) || first.redirect === 'manual') {
        return fetched(response, request.url, redirects > 0);
      }
      if (first.redirect === 'error') throw fetchFailed('unexpected redirect');
      const location = response.headers.get('location');
      const next = location === null ? undefined : new URL(location, request.url);
      // Another site cannot be reached in-process: its redirect is handed back.
      if (next?.origin !== TEST_ORIGIN) return fetched(response, request.url, redirects > 0);
      if (redirects >= MAX_REDIRECTS) throw fetchFailed('redirect count exceeded');
      request = becomesGet(response.status, request.method)
        ? asGet(request, next)
        : { ...request, url: next };
    }
  };
}

/** One request as it goes out: following a redirect changes its URL, and may make it a GET. */
interface Outgoing {
  url: URL;
  method: string;
  headers: Headers;
  body: Buffer | undefined;
  signal: AbortSignal;
}

/** The request with the cookies for its URL: those given, then the jar's. */
function withCookies(request: Outgoing, given: string | null, kept: string | undefined): Outgoing {
  const cookie = [given, kept].filter(Boolean).join('; ');
  if (!cookie) return request;
  const headers = new Headers(request.headers);
  headers.set('cookie', cookie);
  return { ...request, headers };
}

/** Fetch's rule: a 303 (unless to a GET or HEAD), or a 301 or 302 to a POST, goes on as a GET. */
function becomesGet(status: number, method: string): boolean {
  if (status === 303) return method !== 'GET' && method !== 'HEAD';
  return (status === 301 || status === 302) && method === 'POST';
}

/** The request as it goes on to `url` as a GET: without its body or the headers describing it. */
function asGet(request: Outgoing, url: URL): Outgoing {
  const headers = new Headers(request.headers);
  for (const name of BODY_HEADERS) headers.delete(name);
  return { ...request, url, method: 'GET', headers, body: undefined };
}

/** How `fetch` rejects on a network error: a `TypeError` with the reason as its cause. */
function fetchFailed(reason: string): TypeError {
  return new TypeError('fetch failed', { cause: new Error(reason) });
}

/**
 * The response as `fetch` resolves with it, at the URL it came from. `url` and `redirected` are
 * read-only getters over state only `fetch` itself can set, and a `new Response` has them empty:
 * own properties on the instance shadow them (a `clone()` loses them again).
 */
function fetched(response: Response, url: URL, redirected: boolean): Response {
  Object.defineProperty(response, 'url', { value: url.href, enumerable: true });
  Object.defineProperty(response, 'redirected', { value: redirected, enumerable: true });
  return response;
}

async function exchange(server: ReturnType<typeof createServer>, request: Outgoing): Promise<Response> {
  const { url, body, signal } = request;
  const headers = Object.fromEntries(request.headers);
  headers.host = url.host;
  if (body) headers['content-length'] = String(body.length);
  // The browser sends its origin with every request that may change something.
  if (request.method !== 'GET' && request.method !== 'HEAD') headers.origin ??= TEST_ORIGIN;
  const [client, serverSide] = duplexPair();
  server.emit('connection', serverSide);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({
      method: request.method,
      path: url.pathname + url.search,
      headers,
      createConnection: () => client as never,
    });
    const abort = () => {
      outgoing.destroy();
      reject(signal.reason ?? new DOMException('aborted', 'AbortError'));
    };
    if (signal.aborted) return abort();
    signal.addEventListener('abort', abort, { once: true });
    outgoing.once('error', reject);
    outgoing.once('response', (incoming) => {
      readAll(incoming).then((bytes) => {
        signal.removeEventListener('abort', abort);
        client.destroy();
        resolve(toResponse(incoming, bytes));
      }, reject);
    });
    outgoing.end(body);
  });
}

function readAll(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.once('end', () => resolve(Buffer.concat(chunks)));
    incoming.once('error', reject);
  });
}

function toResponse(incoming: IncomingMessage, bytes: Buffer): Response {
  const headers = new Headers();
  for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
    headers.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
  }
  const status = incoming.statusCode ?? 500;
  const empty = status === 204 || status === 304 || bytes.length === 0;
  return new Response(empty ? null : new Uint8Array(bytes), {
    status,
    statusText: incoming.statusMessage ?? '',
    headers,
  });
}

/** Two connected streams: what one end writes the other reads. */
function duplexPair(): [Duplex, Duplex] {
  const ends: Duplex[] = [];
  const end = (other: () => Duplex) =>
    new Duplex({
      read() {},
      write(chunk, _encoding, done) {
        other().push(chunk);
        done();
      },
      final(done) {
        other().push(null);
        done();
      },
      destroy(error, done) {
        // A connection closed on one side is closed on the other.
        if (!other().destroyed) other().push(null);
        done(error);
      },
    });
  ends.push(
    end(() => ends[1]!),
    end(() => ends[0]!),
  );
  // What the server reads of its peer: limits per client count this one address.
  Object.defineProperty(ends[1], 'remoteAddress', { value: '127.0.0.1' });
  return [ends[0]!, ends[1]!];
}
