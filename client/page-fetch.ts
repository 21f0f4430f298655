/**
 * The one page-data request, for navigations and prefetches alike: the request, the answer read
 * and checked, the layout data the server left out filled in, and the modules the page needs,
 * within a time budget. Anything that is not a usable page — a failed request, another build, a
 * redirect to follow, a URL that is no page, scripts too slow — is thrown, for the caller to
 * decide what comes next.
 */
import { STATUS_LINE_BYTES } from '../shared/constants.js';
import {
  isDocumentAnswer,
  isIntercepted,
  isRedirectAnswer,
  PAGE_DATA_TYPE,
  pageDataUrl,
  type DataMode,
} from '../shared/page-data.js';
import { filesOf, segmentFilesOf, type PageState } from '../shared/page-state.js';
import { startDeadline } from './deadline.js';
import { mergeState, readPageData } from './page-data-client.js';
import type { CachedPage, RouterEffects } from './router-types.js';

/** A loader redirected: the navigation goes on to `location` instead. */
export class FollowRedirect extends Error {
  constructor(readonly location: string) {
    super(`redirect to ${location}`);
  }
}

/**
 * The URL is no page (a route handler answers it): the navigation leaves the app for it. Not a
 * failure, so the reload guard of a hard navigation does not apply: the document that loads is
 * the handler's answer, which never comes back here to loop.
 */
export class LoadDocument extends Error {
  constructor(readonly url: string) {
    super(`${url} is not a page`);
  }
}

export const SCRIPTS_TIMED_OUT = 'route scripts timed out';

export interface PageRequest {
  /** Pathname and search of the page the client is on (`''`: none the server may trim for). */
  from: string;
  /** What for (shared/page-data.ts); absent, the whole page. */
  mode?: DataMode | undefined;
  signal: AbortSignal;
  /** The page whose layout data stands in where the server left it out. */
  base?: PageState | undefined;
  /** Asks for every layout's data: what `base` holds may be out of date. */
  whole?: boolean;
  /**
   * A prefetch: its page stands on its own until it is shown (unmatched slots are filled then),
   * its modules load within `modulesWithin`, and `onBytes` learns what it cost on the wire.
   */
  prefetch?: { modulesWithin: <T>(promise: Promise<T>) => Promise<T>; onBytes: (bytes: number) => void };
}

export function createPageFetcher(effects: RouterEffects, buildId: string, routeScriptTimeoutMs: number) {
  /**
   * The route-script budget: the modules' clock starts when the page data is in and they are
   * asked for, so that slow data never turns into a full page load.
   */
  async function loadWithin<T>(promise: Promise<T>): Promise<T> {
    const deadline = startDeadline(effects, routeScriptTimeoutMs, SCRIPTS_TIMED_OUT);
    try {
      return await deadline.race(promise);
    } finally {
      deadline.clear();
    }
  }

  async function fetchPage(url: URL, request: PageRequest): Promise<CachedPage> {
    const { from, mode, signal, base, whole = false, prefetch } = request;
    const dataUrl = pageDataUrl(url.pathname + url.search, from, mode, whole);
    const response = await effects.fetch(dataUrl, { signal, headers: { accept: PAGE_DATA_TYPE } });
    const onBody =
      prefetch &&
      ((chars: number) => prefetch.onBytes(wireBytes(response, chars, effects.bodyBytesOnWire?.(dataUrl))));
    const data = await readPageData(response, onBody);
    if (data.buildId !== buildId) throw new Error('a new build was deployed');
    if (isRedirectAnswer(data)) throw new FollowRedirect(data.redirect.location);
    if (isDocumentAnswer(data)) throw new LoadDocument(url.href);
    const within = prefetch?.modulesWithin ?? loadWithin;
    if (isIntercepted(data)) {
      const files = segmentFilesOf(data.intercept.state.segments);
      return { ...data, modules: await within(effects.loadModules(files)) };
    }
    const state = mergeState(base, data, { showOver: !prefetch, slotRules: effects.slotRules });
    return { state, modules: await within(effects.loadModules(filesOf(state))) };
  }

  return { fetchPage, loadWithin };
}

export type PageFetcher = ReturnType<typeof createPageFetcher>;

/**
 * What a response cost on the wire: its header block, and its body as the browser measured it
 * (Resource Timing), else its `content-length` (the compressed size, which the server sends for
 * page data), else, through a proxy that drops it, the length of the JSON as read.
 *
 * The headers are measured, not read from Resource Timing (whose `transferSize` counts a fixed
 * 300 bytes for them): each `name: value` line as HTTP/1.1 sends it, and the status line. What a
 * script cannot see (`set-cookie`) is missed; over HTTP/2 and 3, where headers are compressed,
 * this counts more than went.
 */
function wireBytes(response: Response, bodyChars: number, bodyOnWire: number | undefined): number {
  let bytes = STATUS_LINE_BYTES;
  response.headers.forEach((value, name) => (bytes += name.length + value.length + 4)); // ': ' and CRLF
  const length = bodyOnWire ?? Number(response.headers.get('content-length') ?? NaN);
  return bytes + (Number.isFinite(length) ? length : bodyChars);
}
