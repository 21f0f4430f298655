/**
 * The Sentry tunnel: browsers post envelopes to our own origin, and each one whose
 * header names the configured DSN's project is relayed to that DSN's endpoint, nowhere else. It
 * reads at most `maxBytes`, follows no redirect, answers within `timeoutMs`, and never reports
 * to Sentry itself: every failure is a status with a plain-text reason, never a stack.
 */
import type { IncomingMessage } from 'node:http';
import { sendRetryLater, sendText } from '../http/answers.js';
import { RetryLater } from '../http/retry-later.js';
import { createGunzip } from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import {
  SENTRY_TUNNEL_MAX_BYTES,
  SENTRY_TUNNEL_MAX_DECOMPRESSED_BYTES,
  SENTRY_TUNNEL_MAX_INFLATING,
} from '../../shared/constants.js';
import { envelopeEndpoint, isSameProject, parseDsn } from './sentry-dsn.js';

export interface SentryTunnelOptions {
  /** The only project envelopes may go to; without one the tunnel answers 404. */
  dsn: string | undefined;
  /** How long the upstream may take, its answer's body included, before a 504. */
  timeoutMs: number;
  /** The most request-body bytes read, counted as received (compressed or not): 1 MiB by default. */
  maxBytes?: number;
  /** The most bytes a gzip body may inflate to while its header is read: 10 MiB by default. */
  maxDecompressedBytes?: number;
  /** Gzip bodies inflated at once, across all requests; one more is a 503: 4 by default. */
  maxInflating?: number;
}

/** The upstream headers the browser SDK reads to back off. */
const PASSED_BACK_HEADERS = ['content-type', 'retry-after', 'x-sentry-rate-limits'];

/** The envelope header line names an event id, a DSN and the SDK: a few hundred bytes. */
const MAX_HEADER_LINE_BYTES = 64 * 1024;
/** Seconds a client is told to wait when every inflation slot is taken. */
const BUSY_RETRY_AFTER_S = 1;

class TunnelRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * An Express handler for `POST <tunnelPath>`. Throws at creation if `dsn` is not a usable DSN.
 *
 * @example app.post('/monitoring', createSentryTunnel({ dsn: process.env.SENTRY_DSN, timeoutMs: 5000 }))
 */
export function createSentryTunnel(options: SentryTunnelOptions): RequestHandler {
  const { timeoutMs, maxBytes = SENTRY_TUNNEL_MAX_BYTES } = options;
  const maxDecompressedBytes = options.maxDecompressedBytes ?? SENTRY_TUNNEL_MAX_DECOMPRESSED_BYTES;
  const dsn = options.dsn === undefined ? undefined : parseDsn(options.dsn);
  if (options.dsn !== undefined && (!dsn || !/^https?:$/.test(dsn.protocol))) {
    throw new TypeError(
      'sentry.dsn must be an http(s) Sentry DSN with a public key and a numeric project id.',
    );
  }
  const upstreamUrl = dsn && envelopeEndpoint(dsn);
  // The inflate budget is the tunnel's, not the request's: bombs sent in parallel share it.
  const maxInflating = options.maxInflating ?? SENTRY_TUNNEL_MAX_INFLATING;
  let inflating = 0;
  const readHeader = async (body: Buffer, encoding: 'gzip' | undefined) => {
    if (encoding !== 'gzip') return readEnvelopeHeader(body);
    if (inflating >= maxInflating) {
      throw new TunnelRefusal(503, 'too many compressed envelopes at once; try again shortly.');
    }
    inflating++;
    try {
      return readEnvelopeHeader(await inflateHeaderLine(body, maxDecompressedBytes));
    } finally {
      inflating--;
    }
  };

  return async (req, res) => {
    try {
      if (!dsn || !upstreamUrl)
        throw new TunnelRefusal(404, 'no Sentry DSN is configured, so there is no tunnel.');
      const encoding = contentEncoding(req);
      const body = await readBody(req, maxBytes);
      const header = await readHeader(body, encoding);
      const sentTo = parseDsn(header.dsn);
      if (!sentTo) throw new TunnelRefusal(400, "the envelope's DSN is not a Sentry DSN.");
      if (!isSameProject(sentTo, dsn))
        throw new TunnelRefusal(403, "the envelope's DSN is not this app's project.");
      await relay(res, upstreamUrl, body, encoding, timeoutMs);
    } catch (error) {
      refuse(req, res, error);
    }
  };
}

function refuse(req: Request, res: Response, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { status, message } =
    error instanceof TunnelRefusal ? error : { status: 500, message: 'the tunnel failed.' };
  // A body left unread must not be drained from a client that may keep sending: drop the connection.
  if (!req.complete) res.setHeader('connection', 'close');
  if (status === 503) return sendRetryLater(res, new RetryLater(503, BUSY_RETRY_AFTER_S, message));
  sendText(res, status, message);
}

/** The body as received. Over `maxBytes` it is refused from its length alone, or mid-read. */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const tooLarge = new TunnelRefusal(413, `the envelope is over ${maxBytes} bytes.`);
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) return Promise.reject(tooLarge);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (outcome: () => void) => {
      req.off('data', onData).off('end', onEnd).off('error', onCutOff).off('close', onCutOff);
      outcome();
    };
    function onData(chunk: Buffer) {
      size += chunk.length;
      chunks.push(chunk);
      if (size <= maxBytes) return;
      // Chunked bodies have no length to refuse early: stop reading at the limit, never at the end.
      req.pause();
      settle(() => reject(tooLarge));
    }
    const onEnd = () => settle(() => resolve(Buffer.concat(chunks, size)));
    const onCutOff = () => settle(() => reject(new TunnelRefusal(400, 'the request body was cut off.')));
    req.on('data', onData).on('end', onEnd).on('error', onCutOff).on('close', onCutOff);
  });
}

function contentEncoding(req: IncomingMessage): 'gzip' | undefined {
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if (encoding === undefined || encoding === '' || encoding === 'identity') return undefined;
  if (encoding === 'gzip' || encoding === 'x-gzip') return 'gzip';
  throw new TunnelRefusal(415, 'only identity and gzip bodies can be read.');
}

/** The envelope's first line, a JSON object with the DSN it was sent for. */
function readEnvelopeHeader(envelope: Buffer): { dsn: string } {
  if (envelope.length === 0) throw new TunnelRefusal(400, 'the envelope is empty.');
  const newline = envelope.indexOf(0x0a);
  if (newline === -1) throw new TunnelRefusal(400, 'the envelope has no header line.');
  let header: unknown;
  try {
    header = JSON.parse(envelope.subarray(0, newline).toString('utf8'));
  } catch {
    throw new TunnelRefusal(400, "the envelope's header line is not JSON.");
  }
  const dsn = typeof header === 'object' && header !== null ? (header as { dsn?: unknown }).dsn : undefined;
  if (typeof dsn !== 'string') throw new TunnelRefusal(400, "the envelope's header has no DSN.");
  return { dsn };
}

/**
 * Inflates a gzip body as a stream, keeping only what comes up to the header line's end: the rest
 * is counted and dropped, so a bomb costs one zlib stream's memory, not its inflated size. Past
 * `maxDecompressedBytes` in all it is refused, as it would be refused upstream.
 */
function inflateHeaderLine(body: Buffer, maxDecompressedBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const gunzip = createGunzip();
    const kept: Buffer[] = [];
    let inflated = 0;
    let lineEnded = false;
    gunzip.on('data', (chunk: Buffer) => {
      inflated += chunk.length;
      if (inflated > maxDecompressedBytes) {
        gunzip.destroy();
        reject(new TunnelRefusal(413, `the envelope inflates to over ${maxDecompressedBytes} bytes.`));
        return;
      }
      // A header line longer than this is no header line: the envelope is refused as having none.
      if (lineEnded || inflated - chunk.length > MAX_HEADER_LINE_BYTES) return;
      kept.push(chunk);
      lineEnded = chunk.includes(0x0a);
    });
    gunzip.on('end', () => resolve(Buffer.concat(kept)));
    gunzip.on('error', () => reject(new TunnelRefusal(400, 'the body is not valid gzip.')));
    gunzip.end(body);
  });
}

/** Posts the body as received and answers with Sentry's 2xx or 4xx; anything else is a 502 or 504. */
async function relay(
  res: Response,
  url: string,
  body: Buffer,
  encoding: 'gzip' | undefined,
  timeoutMs: number,
): Promise<void> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const upstream = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-sentry-envelope',
        ...(encoding ? { 'content-encoding': encoding } : {}),
      },
      // A copy, typed as fetch wants it (a Buffer's type admits a SharedArrayBuffer).
      body: new Uint8Array(body),
      // A redirect could point anywhere; the configured host is the only one we trust.
      redirect: 'manual',
      signal,
    });
    const status = upstream.status;
    if (!((status >= 200 && status < 300) || (status >= 400 && status < 500))) {
      await upstream.body?.cancel().catch(() => undefined);
      const what = status >= 300 && status < 400 ? 'a redirect, which the tunnel does not follow' : status;
      throw new TunnelRefusal(502, `Sentry answered with ${what}.`);
    }
    const answer = Buffer.from(await upstream.arrayBuffer());
    for (const name of PASSED_BACK_HEADERS) {
      const value = upstream.headers.get(name);
      if (value !== null) res.setHeader(name, value);
    }
    res.status(status).send(answer);
  } catch (error) {
    if (error instanceof TunnelRefusal) throw error;
    if (signal.aborted) throw new TunnelRefusal(504, `Sentry did not answer within ${timeoutMs} ms.`);
    throw new TunnelRefusal(502, 'Sentry could not be reached.');
  }
}
