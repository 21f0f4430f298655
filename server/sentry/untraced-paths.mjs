/**
 * Which requests the server never traces: the tunnel (it relays Sentry's own traffic), the
 * build's hashed assets and every other file of the built client, the app's public files
 * included. Those are answered before any route, so a transaction would only say "a file".
 * Plain JavaScript: the instrument module loads it before any compiler.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/**
 * The test the Node SDK's HTTP integration asks of each request's path and query. The built
 * files are listed once, here: a build never changes while it is served.
 * @param {{ tunnelPath: string, clientDir: string | undefined }} options
 * @returns {(urlPath: string) => boolean}
 * @example isUntracedPath({ tunnelPath: '/monitoring', clientDir: 'dist/client' })('/robots.txt') // true
 */
export function isUntracedPath({ tunnelPath, clientDir }) {
  const files = clientDir === undefined ? new Set() : listFiles(clientDir);
  return (urlPath) => {
    const path = urlPath.split(/[?#]/)[0] ?? '';
    return path === tunnelPath || path.startsWith('/assets/') || files.has(decodePath(path));
  };
}

/**
 * Every file under `dir` by decoded URL path (`/a b.txt`), as the static handler serves them:
 * dot-folders are not served (Vite's `.vite/`), but for `.well-known/`; a precompressed twin
 * (`.br`, `.gz`) stands for its original too. None when there is no such folder.
 * @param {string} dir
 * @returns {Set<string>}
 */
function listFiles(dir) {
  if (!existsSync(dir)) return new Set();
  const paths = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => '/' + relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !/\/\./.test(path.replace(/^\/\.well-known\//, '/')));
  return new Set(paths.flatMap((path) => [path, path.replace(/\.(br|gz)$/, '')]));
}

/** @param {string} path */
function decodePath(path) {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
