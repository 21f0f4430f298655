/**
 * Build-time compression of the client bundle, the app's public files included: each compressible
 * file of 1 KiB or more gets a `.br` (quality 11) and a `.gz` (level 9) twin beside it, each kept
 * only when smaller. The server sends a twin as it is (see static-files.ts), so the strongest
 * levels cost nothing per request.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { MIN_COMPRESS_BYTES } from '../http/compression.js';

/**
 * Text (scripts, styles, documents, data, and what the app's `public/` folder usually holds:
 * `robots.txt`, `site.webmanifest`, feeds) and binary formats stored uncompressed: fonts in
 * TrueType/OpenType outlines, WebAssembly, and icons: a `favicon.ico` usually holds raw bitmaps,
 * which shrink several times (one holding PNG frames gets twins barely smaller, or none).
 * Formats compressed already (PNG, JPEG, WebP, AVIF, GIF, WOFF2, video, PDF, archives) are not.
 */
const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.webmanifest',
  '.txt',
  '.md',
  '.csv',
  '.xml',
  '.rss',
  '.atom',
  '.map',
  '.wasm',
  '.ico',
  '.ttf',
  '.otf',
]);
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Writes the twins for every compressible file under `dir`; returns how many files got them. */
export async function precompressAssets(dir: string): Promise<number> {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (COMPRESSIBLE.has(extname(entry.name))) files.push(path);
    }
  };
  walk(dir);
  let count = 0;
  await Promise.all(
    files.map(async (path) => {
      const body = readFileSync(path);
      if (body.length < MIN_COMPRESS_BYTES) return;
      const [br, gzipped] = await Promise.all([
        brotli(body, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
        }),
        gz(body, { level: 9 }),
      ]);
      if (br.length < body.length) writeFileSync(`${path}.br`, br);
      if (gzipped.length < body.length) writeFileSync(`${path}.gz`, gzipped);
      if (br.length < body.length || gzipped.length < body.length) count++;
    }),
  );
  return count;
}
