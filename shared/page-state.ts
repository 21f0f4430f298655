/**
 * What the server tells the client about the page it rendered: enough to hydrate the same tree
 * without a request (SPEC N1), and later to know which segments a navigation changes (N2).
 * It is plain JSON; `serialize-for-script.ts` makes it safe inside a `<script>`.
 */
import type { Params } from './match-route';
import type { ComponentFile } from './route-tree';

export type SearchParams = Record<string, string | string[]>;

export interface SegmentState {
  /** Folder path relative to the app directory, `''` for the root. */
  dir: string;
  /** The component files of this segment by role (`page` only on the last one). */
  files: Partial<Record<ComponentFile, string>>;
  /** What `layout.server`'s `load` returned. */
  layoutData?: unknown;
  /** What `page.server`'s `load` returned (last segment only). */
  pageData?: unknown;
}

export interface PageState {
  buildId: string;
  /** The matched route pattern, `null` when nothing matched. */
  pattern: string | null;
  params: Params;
  searchParams: SearchParams;
  /** Root first. The last segment holds the page, or is where a not-found boundary took over. */
  segments: SegmentState[];
  /** Set when the page is a not-found: the `not-found` file rendered in place of the page. */
  notFound?: string;
}

/** `URLSearchParams` as the plain object pages receive: repeated keys become arrays. */
export function toSearchParams(search: Iterable<readonly [string, string]>): SearchParams {
  // A null prototype, so that `?__proto__=x` is a plain key and never a prototype.
  const out: SearchParams = Object.create(null) as SearchParams;
  for (const [key, value] of search) {
    const prev = out[key];
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}
