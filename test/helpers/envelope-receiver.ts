/**
 * A Sentry envelope receiver on 127.0.0.1: it records every request posted to it with
 * the body parsed as an envelope (gzip bodies inflated first), and answers as the test last told
 * it: accept, rate-limit, a status, hang, or redirect. Hanging requests end when it closes.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { listenOnLoopback, readAll, type LoopbackServer } from './loopback-server';

export interface EnvelopeItem {
  header: Record<string, unknown>;
  payload: Buffer;
}

export interface Envelope {
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

export interface ReceivedRequest {
  method: string;
  /** The path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body as it came over the wire, still compressed if it was sent compressed. */
  body: Buffer;
  /** `undefined` when the body is not an envelope; the receiver then answered 400. */
  envelope: Envelope | undefined;
}

export type ReceiverAnswer =
  | { kind: 'accept' }
  | { kind: 'rate-limit'; retryAfter: string; rateLimits: string }
  | { kind: 'status'; status: number; body: string }
  | { kind: 'hang' }
  | { kind: 'redirect'; status: 301 | 302 | 303 | 307 | 308; location: string };

export interface EnvelopeReceiver extends LoopbackServer {
  requests: ReceivedRequest[];
  /** How every later request is answered; `accept` until told otherwise. */
  answerWith(answer: ReceiverAnswer): void;
  /** Forgets what was received and accepts again. */
  reset(): void;
}

export async function startEnvelopeReceiver(): Promise<EnvelopeReceiver> {
  const requests: ReceivedRequest[] = [];
  let answer: ReceiverAnswer = { kind: 'accept' };
  const server = await listenOnLoopback((req, res) => {
    readAll(req).then(
      (body) => {
        const envelope = tryParseEnvelope(body, req.headers['content-encoding']);
        requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, envelope });
        respond(res, answer, envelope);
      },
      () => res.destroy(),
    );
  });
  return {
    ...server,
    requests,
    answerWith: (next) => void (answer = next),
    reset() {
      requests.length = 0;
      answer = { kind: 'accept' };
    },
  };
}

function respond(res: ServerResponse, answer: ReceiverAnswer, envelope: Envelope | undefined): void {
  if (answer.kind === 'hang') return;
  if (!envelope) {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('receiver: not an envelope');
  } else if (answer.kind === 'accept') {
    const id = envelope.header.event_id ?? null;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id }));
  } else if (answer.kind === 'rate-limit') {
    res
      .writeHead(429, {
        'content-type': 'text/plain',
        'retry-after': answer.retryAfter,
        'x-sentry-rate-limits': answer.rateLimits,
      })
      .end('receiver: rate limited');
  } else if (answer.kind === 'status') {
    res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
  } else {
    res.writeHead(answer.status, { location: answer.location }).end();
  }
}

function tryParseEnvelope(body: Buffer, encoding: string | undefined): Envelope | undefined {
  try {
    return parseEnvelope(encoding === 'gzip' ? gunzipSync(body) : body);
  } catch {
    return undefined;
  }
}

/**
 * Reads an envelope: a JSON header line, then items, each a JSON header line and a payload of
 * `length` bytes (which may hold newlines) or, without `length`, up to the next newline.
 */
export function parseEnvelope(bytes: Buffer): Envelope {
  let offset = 0;
  const readLine = (): Buffer => {
    const newline = bytes.indexOf(0x0a, offset);
    const end = newline === -1 ? bytes.length : newline;
    const line = bytes.subarray(offset, end);
    offset = end + 1;
    return line;
  };
  const header = parseJsonObject(readLine());
  const items: EnvelopeItem[] = [];
  while (offset < bytes.length) {
    const itemHeader = parseJsonObject(readLine());
    const { length } = itemHeader;
    if (typeof length !== 'number') {
      items.push({ header: itemHeader, payload: readLine() });
      continue;
    }
    if (offset + length > bytes.length) throw new Error(`an item is shorter than its length ${length}`);
    items.push({ header: itemHeader, payload: bytes.subarray(offset, offset + length) });
    // The newline after a payload with a length is optional.
    offset += bytes[offset + length] === 0x0a ? length + 1 : length;
  }
  return { header, items };
}

function parseJsonObject(line: Buffer): Record<string, unknown> {
  const value: unknown = JSON.parse(line.toString('utf8'));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error(`not a JSON object: ${line.toString('utf8')}`);
  }
  return value as Record<string, unknown>;
}
