/**
 * How responses are compressed. Text made per request (HTML, page data) is compressed as it is
 * sent, at fast levels, with the encoding the client prefers among brotli and gzip; static
 * assets are compressed once, hard, at build time (see `precompressAssets`), never per request.
 */
import {
  brotliCompress,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  type BrotliCompress,
  type Gzip,
} from 'node:zlib';
import type { Response } from 'express';
import { addVary } from './answers.js';

/** Brotli quality for documents, compressed as they stream: near gzip's speed. */
export const BROTLI_QUALITY = 4;
/**
 * Brotli quality for page data, compressed in one piece off the main thread and sent with every
 * soft navigation and prefetch, where its bytes are what a slow link waits for. Quality 5 is the
 * first with literal context modelling: on the bench page's 17 KB of JSON 3,030 bytes against
 * quality 4's 3,541 (14 % fewer), for about 30 µs more of the thread pool's CPU.
 */
export const PAGE_DATA_BROTLI_QUALITY = 5;
/** gzip level for responses made per request, for clients without brotli. */
export const GZIP_LEVEL = 6;
/** Below this, a body is sent as it is: compressing it saves less than it costs. */
export const MIN_COMPRESS_BYTES = 1024;

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer an `Accept-Encoding` header with: brotli before gzip, when the client
 * accepts it with a non-zero weight (`*` stands for any encoding it does not name); `null` for
 * none of the two.
 */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const accepts = (encoding: string) => (weights.get(encoding) ?? weights.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

/**
 * A compressing stream whose `flush()` sends out what it holds so far, so a streamed document's
 * shell and each later chunk reach the browser at once rather than when the stream ends.
 */
export function createCompressor(encoding: Encoding): BrotliCompress | Gzip {
  if (encoding === 'br')
    return createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });
  const gzip = createGzip({ level: GZIP_LEVEL });
  // A sync flush keeps the dictionary (the default full flush resets it, costing ratio).
  const flush = gzip.flush.bind(gzip);
  gzip.flush = (kind?: number | (() => void), callback?: () => void) =>
    typeof kind === 'number' ? flush(kind, callback) : flush(constants.Z_SYNC_FLUSH, kind ?? callback);
  return gzip;
}

/**
 * `res.json` with compression: the body goes out brotli- or gzip-encoded when the client
 * accepts it and it is worth it. Compressing runs off the main thread.
 */
export function sendJson(res: Response, body: unknown): void {
  const json = Buffer.from(JSON.stringify(body));
  addVary(res, 'accept-encoding');
  res.setHeader('content-type', 'application/json; charset=utf-8');
  const encoding =
    json.length >= MIN_COMPRESS_BYTES ? negotiateEncoding(res.req.headers['accept-encoding']) : null;
  if (!encoding) {
    res.end(json);
    return;
  }
  const done = (error: Error | null, compressed: Buffer) => {
    if (res.destroyed) return;
    if (error) res.end(json);
    else res.setHeader('content-encoding', encoding).end(compressed);
  };
  if (encoding === 'br')
    brotliCompress(
      json,
      {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: PAGE_DATA_BROTLI_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
        },
      },
      done,
    );
  else gzip(json, { level: GZIP_LEVEL }, done);
}
