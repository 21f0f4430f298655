/**
 * `fetch` into a Node request handler in the same process, with no port and no socket: each
 * request gets a pair of connected in-memory streams, Node's HTTP client writes the request on
 * one end and Node's HTTP server parses it on the other, so the handler sees a real
 * `IncomingMessage` and writes a real `ServerResponse`. The answer is read whole before it
 * resolves. Redirects of a GET are followed on this origin, as the browser's `fetch` does.
 */
import { createServer, request as httpRequest, type IncomingMessage, type RequestListener } from 'node:http';
import { Duplex } from 'node:stream';

export const TEST_ORIGIN = 'http://localhost';
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export type InProcessFetch = (url: string, init?: RequestInit) => Promise<Response>;

export function inProcessFetch(handler: RequestListener): InProcessFetch {
  // Never listens: connections are handed to it one at a time.
  const server = createServer(handler);
  const send = async (request: Request, redirects: number): Promise<Response> => {
    const response = await exchange(server, request);
    const location = response.headers.get('location');
    if (!REDIRECTS.has(response.status) || !location || request.method !== 'GET') return response;
    const next = new URL(location, request.url);
    if (next.origin !== TEST_ORIGIN || redirects >= MAX_REDIRECTS) return response;
    return send(new Request(next, { headers: request.headers, signal: request.signal }), redirects + 1);
  };
  return (url, init) => send(new Request(new URL(url, TEST_ORIGIN), init), 0);
}

async function exchange(server: ReturnType<typeof createServer>, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
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
      reject(request.signal.reason ?? new DOMException('aborted', 'AbortError'));
    };
    if (request.signal.aborted) return abort();
    request.signal.addEventListener('abort', abort, { once: true });
    outgoing.once('error', reject);
    outgoing.once('response', (incoming) => {
      readAll(incoming).then((bytes) => {
        request.signal.removeEventListener('abort', abort);
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
