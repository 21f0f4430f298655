/**
 * What the server tells the client about the page it rendered: enough to hydrate the same tree
 * without a request, and later to know which segments a navigation changes.
 * Its own fields are plain JSON; the loader data in it may be richer (server/render/encode-data.ts
 * says how each reaches the browser).
 */
import type { HeadChange, HeadTag } from './head.js';
import type { Params } from './match-route.js';
import type { ComponentFile } from './route-tree.js';

export type SearchParams = Record<string, string | string[]>;

/** The two places of loader data in a segment. */
export const DATA_KINDS = ['layoutData', 'pageData'] as const;
export type DataKind = (typeof DATA_KINDS)[number];

export interface SegmentState {
  /** Folder path relative to the app directory, `''` for the root. */
  dir: string;
  /** The component files of this segment by role (`page` only on the last one). */
  files: Partial<Record<ComponentFile, string>>;
  /** What `layout.server`'s `load` returned. */
  layoutData?: unknown;
  /** What `page.server`'s `load` returned (last segment only). */
  pageData?: unknown;
  /**
   * Page data only: the client already holds this segment's layout data (same segment, same
   * params), so the server left it out and the client keeps its own.
   */
  reuseLayoutData?: true;
  /**
   * Page data only: the loader data that is not plain JSON (a `Date`, a `Map`, an `undefined`
   * inside, an object met twice…), in devalue's flattened form, in place of `layoutData` or
   * `pageData`. The client puts it back with `unflatten` before anything reads the state.
   */
  encoded?: Partial<Record<DataKind, unknown>>;
  /** The parallel routes this segment's layout renders beside `children`, by slot name. */
  slots?: Record<string, SlotState>;
}

/**
 * What one slot shows: a branch of its own from the slot folder down, whose last segment holds
 * the page, or the slot's `default.tsx` when nothing in the slot matched the URL. `unmatched`
 * (no segments) is only ever sent as page data, for a slot with neither: the client keeps what
 * the slot shows, and never renders it as such.
 */
export interface SlotState {
  segments: SegmentState[];
  params: Params;
  shows: 'page' | 'default' | 'unmatched';
  /** The page is an intercepted route: leaving it puts the slot back to its default. */
  intercepted?: true;
  /** An intercepted route's: what it changes in the head of the page it is shown over. */
  head?: HeadChange[];
}

export interface PageState {
  buildId: string;
  /** Pathname and search of the page, as requested (`/photos/3?q=1`). */
  url: string;
  /** The matched route pattern, `null` when nothing matched. */
  pattern: string | null;
  params: Params;
  searchParams: SearchParams;
  /** The output of the page's `search` schema, when its `page.server` exports one. */
  search?: unknown;
  /** Root first. The last segment holds the page, or is where a not-found boundary took over. */
  segments: SegmentState[];
  /** Set when the page is a not-found: the `not-found` file rendered in place of the page. */
  notFound?: string;
  /**
   * Set when a `load` failed and an `error.tsx` caught it: the last segment is the one whose
   * boundary caught it, and shows its fallback (with this digest) in place of what is below.
   */
  error?: { digest: string };
  /**
   * Set on a partial state (an `auto` prefetch): the index of the segment whose `loading.tsx`
   * stands in for everything inside it, whose data was not fetched.
   */
  pendingAt?: number;
  /**
   * Only a slot matched the URL: the last segment's children have no page here. A document
   * shows that folder's `default.tsx`; a soft navigation keeps what the children showed.
   */
  slotOnly?: true;
  /** Cache windows the page declared (`export const cachePolicy` in its `page.server`). */
  cachePolicy?: { freshMs: number; staleMs: number };
  /**
   * Set while a slot shows an intercepted route: the URL the rest of the page was rendered
   * for (the feed under a photo modal). `url` is then the intercepted URL, in the address bar.
   */
  mainUrl?: string;
  /**
   * The page's head tags, merged by the server from its modules' `head` exports
   * (server/render/page-head.ts); a document's without its streamed data. None when absent.
   */
  head?: HeadTag[];
  /**
   * Browser only, a document's: the head tags as the streamed data that has arrived makes them
   * (the server sends them with that data). They replace `head` once the page has hydrated.
   */
  streamedHead?: HeadTag[];
  /**
   * Document only: the data places (`streamedId`) whose loaders were still running when the
   * shell streamed. Their data follows in the same response (shared/streamed-data.ts).
   */
  streamed?: string[];
}

/** The component files a state renders, slots included: a partial state stops at its loading state. */
export function filesOf(state: PageState): string[] {
  if (state.pendingAt !== undefined) {
    return state.segments.slice(0, state.pendingAt + 1).flatMap((s, i) => {
      const { page: _page, ...files } = s.files;
      // Inside the pending segment only the layout and the loading state render.
      const own = Object.values(
        i === state.pendingAt ? { layout: files.layout, loading: files.loading } : files,
      ).filter((f) => f !== undefined);
      return [...own, ...slotFilesOf(s)];
    });
  }
  const files = segmentFilesOf(state.segments);
  if (state.notFound) files.push(state.notFound);
  return files;
}

/** The component files of a run of segments and of the slots they hold. */
export function segmentFilesOf(segments: readonly SegmentState[]): string[] {
  return segments.flatMap((s) => [...Object.values(s.files), ...slotFilesOf(s)]);
}

function slotFilesOf(segment: SegmentState): string[] {
  return Object.values(segment.slots ?? {}).flatMap((slot) => segmentFilesOf(slot.segments));
}

/** `URLSearchParams` as the plain object pages receive: repeated keys become arrays. */
export function toSearchParams(search: Iterable<readonly [string, string]>): SearchParams {
  // A null prototype, so that `?__proto__=x` is a plain key and never a prototype.
  const out: SearchParams = Object.create(null) as SearchParams;
  for (const [key, value] of search) {
    const prev = out[key];
    // Pushed, not copied: `?a=&a=…` repeated n times costs n steps, not n² / 2.
    if (prev === undefined) out[key] = value;
    else if (Array.isArray(prev)) prev.push(value);
    else out[key] = [prev, value];
  }
  return out;
}

/**
 * The identity of a segment: its folder and the values of the params bound at or above it.
 * Two pages that share a segment key share that segment's layout, its data and its state.
 */
export function segmentKey(dir: string, params: Params): string {
  const names = paramNamesOf(dir);
  return names.length === 0 ? dir : `${dir}|${JSON.stringify(names.map((name) => params[name]))}`;
}

/**
 * A folder that binds a param, behind any interception markers: `[id]`, `[...path]`,
 * `[[...slug]]`, `(..)[id]`. The same reading as `paramOf(parseSegment(name))` in segment.ts
 * (a test holds them to it), without that module's weight in the browser's first load.
 */
const PARAM_FOLDER =
  /^(?:\(\.{1,3}\))*(?:\[\[\.\.\.([\p{L}\p{N}_-]+)\]\]|\[\.\.\.([\p{L}\p{N}_-]+)\]|\[([\p{L}\p{N}_-]+)\])$/u;

// The param names bound down a folder path, parsed once per folder: an app has few folders and
// a request asks for each key several times. Cleared past a bound, should folders keep coming.
const PARAM_NAMES = new Map<string, readonly string[]>();
const PARAM_NAMES_HELD = 1_000;

function paramNamesOf(dir: string): readonly string[] {
  let names = PARAM_NAMES.get(dir);
  if (names === undefined) {
    names = dir.split('/').flatMap((name) => {
      const m = PARAM_FOLDER.exec(name);
      return m ? [(m[1] ?? m[2] ?? m[3])!] : [];
    });
    if (PARAM_NAMES.size >= PARAM_NAMES_HELD) PARAM_NAMES.clear();
    PARAM_NAMES.set(dir, names);
  }
  return names;
}
