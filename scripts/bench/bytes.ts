/**
 * What goes over the wire: the document, the JavaScript a first load needs (total, and the
 * router runtime alone without React), and page data against the raw loader JSON. Sizes are
 * given raw, gzip -9 computed here (comparable whatever the server sends), and as received
 * with a browser's `Accept-Encoding`. What rich loader data (not plain JSON) costs is computed
 * here too, from the encoder the server runs.
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { encodeSegments } from '../../server/render/encode-data';
import { pageDataUrl } from '../../shared/page-data';
import { itemsFor } from './items';
import { BROWSER_ENCODING } from './load';

export interface Sizes {
  raw: number;
  gzip: number;
  wire: number;
  encoding: string;
}

export const gzipSize = (body: Buffer | string) => gzipSync(body, { level: 9 }).length;

async function get(
  url: string,
  encoding?: string,
): Promise<{ body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: encoding ? { 'accept-encoding': encoding } : {}, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('end', () => resolve({ body: Buffer.concat(chunks), headers: res.headers }));
      })
      .once('error', reject);
  });
}

export async function sizesOf(url: string): Promise<Sizes> {
  const plain = await get(url);
  const wire = await get(url, BROWSER_ENCODING);
  return {
    raw: plain.body.length,
    gzip: gzipSize(plain.body),
    wire: wire.body.length,
    encoding: String(wire.headers['content-encoding'] ?? 'identity'),
  };
}

/** The scripts a document loads or preloads: module scripts and modulepreload links. */
export function scriptsOf(html: string): string[] {
  const found = new Set<string>();
  for (const [, tag = ''] of html.matchAll(/<((?:script|link)\b[^>]*)>/g)) {
    const src = /\b(?:src|href)="([^"]+\.js)"/.exec(tag)?.[1];
    if (src && (tag.startsWith('script') || /rel="modulepreload"/.test(tag))) found.add(src);
  }
  return [...found];
}

export async function firstLoadJs(origin: string, path: string) {
  const html = (await get(origin + path)).body.toString();
  const files = await Promise.all(scriptsOf(html).map((src) => sizesOf(origin + src)));
  const sum = (key: 'raw' | 'gzip' | 'wire') => files.reduce((total, f) => total + f[key], 0);
  return { files: files.length, raw: sum('raw'), gzip: sum('gzip'), wire: sum('wire') };
}

/** A navigation's page data (from the page before) next to what the loader returned. */
export async function pageData(origin: string, target: string, from: string) {
  const answer = await sizesOf(origin + pageDataUrl(target, from));
  const loader = JSON.stringify(itemsFor(target.split('/').pop()!));
  return { answer, loaderRaw: loader.length, loaderGzip: gzipSize(loader) };
}

/**
 * The bench page's items with a `Date` each, as page data carries them (devalue's JSON, in
 * the segment's `encoded`), next to the same items with the date as an ISO string (plain JSON).
 */
export function richPageData(id: string) {
  const start = Date.UTC(2026, 0, 1);
  const items = itemsFor(id).items.map((item, i) => ({ ...item, at: new Date(start + i * 60_000) }));
  const segment = (pageData: unknown) => [{ dir: 'items/[id]', files: {}, pageData }];
  const encoded = JSON.stringify(encodeSegments(segment({ id, items }), () => 'bench'));
  const plain = JSON.stringify(segment({ id, items }));
  return { encodedGzip: gzipSize(encoded), plainGzip: gzipSize(plain) };
}

export { routerRuntime } from './runtime';
