/**
 * Serves the client build. Its files are listed once at start-up (a build never changes while
 * it is served), so a request for anything else, a page above all, costs a map lookup and no
 * file-system call. Each file goes out as the `.br` or `.gz` twin the build made for it when
 * the client accepts that encoding: nothing is compressed per request.
 *
 * Hashed files (`/assets/`) are kept for good. The app's public files keep their names from
 * build to build, so browsers must ask again each time; each carries a strong `ETag` of its
 * content, hashed at start-up, which turns the question into a 304 with no body.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream';
import type { RequestHandler } from 'express';
import { addVary } from './answers.js';
import { negotiateEncoding, type Encoding } from './compression.js';

interface StaticFile {
  path: string;
  size: number;
  /** The precompressed twins the build wrote beside the file. */
  encoded: Partial<Record<Encoding, { path: string; size: number }>>;
}

const TWIN_EXTENSIONS: Record<string, Encoding> = { '.br': 'br', '.gz': 'gzip' };
/** Hashed file names never change content, so browsers may keep them for good. */
export const HASHED_DIR = '/assets/';
/** The one dot-folder served: RFC 8615's well-known URIs (`security.txt` and the like). */
const WELL_KNOWN = '.well-known';

/**
 * Every file under `dir` by URL path (decoded: `/a b.txt`). Dot-files and dot-folders (Vite's
 * `.vite/` manifest, an editor's droppings) are left out, but for a top-level `.well-known/`.
 */
export function indexStaticFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const twins: [string, Encoding, string, number][] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.') && !(folder === dir && entry.name === WELL_KNOWN)) continue;
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
  const tags = new Map<string, string>();
  for (const [url, file] of files) if (!url.startsWith(HASHED_DIR)) tags.set(url, contentTag(file.path));
  const fileAt = (path: string): [string, StaticFile] | undefined => {
    let file = files.get(path);
    // Names with spaces or non-ASCII letters arrive percent-encoded. An escaped slash is part
    // of a name, as it is for the router, so `/notes%2Fa.txt` is not `/notes/a.txt`.
    if (!file && path.includes('%') && !/%2f/i.test(path)) {
      path = safeDecode(path);
      file = files.get(path);
    }
    return file && [path, file];
  };
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const found = fileAt(req.path);
    if (!found) return next();
    const [url, file] = found;
    const hasTwins = file.encoded.br !== undefined || file.encoded.gzip !== undefined;
    const encoding = hasTwins ? negotiateEncoding(req.headers['accept-encoding']) : null;
    const chosen = (encoding && file.encoded[encoding]) || file;
    if (hasTwins) addVary(res, 'accept-encoding');
    const tag = tags.get(url);
    if (tag) {
      res.setHeader('cache-control', 'public, max-age=0, must-revalidate');
      // A twin is another representation, so it needs a tag of its own (RFC 9110, 8.8.3).
      res.setHeader('etag', chosen === file ? `"${tag}"` : `"${tag}-${encoding}"`);
      if (req.fresh) {
        res.status(304).end();
        return;
      }
    } else res.setHeader('cache-control', 'public, max-age=31536000, immutable');
    res.type(extname(url) || 'application/octet-stream');
    res.setHeader('content-length', chosen.size);
    if (chosen !== file) res.setHeader('content-encoding', encoding!);
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(chosen.path);
    // Nothing is sent until the file is open, so a file that cannot be opened (removed since
    // start-up, or no descriptor left) still gets the error page.
    const failToOpen = (error: Error) => {
      res.removeHeader('content-encoding');
      next(error);
    };
    stream.once('error', failToOpen);
    stream.once('open', () => {
      stream.off('error', failToOpen);
      // pipeline() destroys the file when the client goes away mid-download; pipe() would
      // leave it open, one descriptor lost per aborted download. A read error once the body
      // has begun can only cut the connection, which pipeline() has done by the callback.
      pipeline(stream, res, () => {});
    });
  };
}

/**
 * A strong validator of a file's bytes. Read in chunks, so a large public file costs start-up
 * time once but never its size in memory.
 */
function contentTag(path: string): string {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(64 * 1024);
  const fd = openSync(path, 'r');
  try {
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) {
      hash.update(chunk.subarray(0, read));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('base64url').slice(0, 16);
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
