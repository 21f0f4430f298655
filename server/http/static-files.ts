/**
 * Serves the client build. Its files are listed once at start-up (a build never changes while
 * it is served), so a request for anything else, a page above all, costs a map lookup and no
 * file-system call. Each file goes out as the `.br` or `.gz` twin the build made for it when
 * the client accepts that encoding: nothing is compressed per request.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import type { RequestHandler } from 'express';
import { negotiateEncoding, type Encoding } from './compression.js';

interface StaticFile {
  path: string;
  size: number;
  /** The precompressed twins the build wrote beside the file. */
  encoded: Partial<Record<Encoding, { path: string; size: number }>>;
}

const TWIN_EXTENSIONS: Record<string, Encoding> = { '.br': 'br', '.gz': 'gzip' };
/** Hashed file names never change content, so browsers may keep them for good. */
const HASHED_DIR = '/assets/';

/** Every file under `dir` by URL path, dot-folders (Vite's `.vite/` manifest) left out. */
export function indexStaticFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const twins: [string, Encoding, string, number][] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const url = '/' + relative(dir, path).split(sep).join('/');
        const size = statSync(path).size;
        const twin = TWIN_EXTENSIONS[extname(url)];
        if (twin) twins.push([url.slice(0, -extname(url).length), twin, path, size]);
        else files.set(url, { path, size, encoded: {} });
      }
    }
  };
  walk(dir);
  for (const [url, encoding, path, size] of twins) {
    const file = files.get(url);
    // A twin without its original (someone's own `.gz` download) is served as it is.
    if (file) file.encoded[encoding] = { path, size };
    else files.set(`${url}${encoding === 'br' ? '.br' : '.gz'}`, { path, size, encoded: {} });
  }
  return files;
}

export function serveStaticFiles(dir: string): RequestHandler {
  const files = indexStaticFiles(dir);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = files.get(req.path);
    if (!file) return next();
    const hasTwins = file.encoded.br !== undefined || file.encoded.gzip !== undefined;
    const encoding = hasTwins ? negotiateEncoding(req.headers['accept-encoding']) : null;
    const chosen = (encoding && file.encoded[encoding]) || file;
    res.type(extname(req.path) || 'application/octet-stream');
    res.setHeader('content-length', chosen.size);
    if (hasTwins) res.vary('accept-encoding');
    if (chosen !== file) res.setHeader('content-encoding', encoding!);
    res.setHeader(
      'cache-control',
      req.path.startsWith(HASHED_DIR)
        ? 'public, max-age=31536000, immutable'
        : 'public, max-age=0, must-revalidate',
    );
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(chosen.path)
      .once('error', (error) => {
        if (res.headersSent) return res.destroy(error);
        res.removeHeader('content-encoding');
        next(error);
      })
      .pipe(res);
  };
}
