/**
 * The page-data protocol. A soft navigation asks for the target URL with one
 * extra search param, `_sy`, whose value is the URL the client navigates from:
 *
 *   GET /photos/3?q=1&_sy=%2F            → JSON page state for /photos/3?q=1, coming from /
 *
 * The request is the document request with another answer: the same path goes through the same
 * handler and guards, every `load` runs (a skipped loader could be a skipped guard), and only
 * the data is trimmed — layout data the client already holds is marked `reuseLayoutData`
 * instead of sent. A distinct URL per answer keeps the response cache-safe without `Vary`.
 */
import type { PageState, SlotState } from './page-state.js';

/** The search param that turns a document request into a page-data request. */
export const PAGE_DATA_PARAM = '_sy';
/**
 * With `_sy`, what the request is for:
 * - `auto`: an auto prefetch: data down to the first loading state;
 * - `full`: a full prefetch: all data;
 * - `rest`: the client shows this page's loading state: send what is inside it.
 * Without it: a navigation. All but `rest` are trimmed against the page named in `_sy`: a
 * prefetch names the page it is made from, and the client fills its entry in from that page.
 */
export const PREFETCH_PARAM = '_syp';
/**
 * With `_sy`, `_syw=1` asks for the page whole: the client holds no layout data it can trust
 * (a refresh or a revalidation is on its way), so nothing is trimmed; `_sy` still says where
 * the user is, which decides an interception.
 */
export const WHOLE_PARAM = '_syw';
export type DataMode = 'auto' | 'full' | 'rest';

export function isDataMode(value: string): value is DataMode {
  return value === 'auto' || value === 'full' || value === 'rest';
}
export const PAGE_DATA_TYPE = 'application/json';

/** A page-data answer: the page state, its HTTP status, or the digest of a server error. */
export type PageDataResponse = PageState & { status: 200 | 404 };

/**
 * The answer for an intercepted route: one slot to show over the page the client
 * holds, which keeps every other segment. `at` is the folder of the segment owning the slot.
 */
export interface InterceptedAnswer {
  buildId: string;
  url: string;
  status: 200;
  intercept: { at: string; slot: string; state: SlotState };
}

/**
 * The answer when a loader redirected: the client navigates there itself, so the
 * target is checked in the browser too and the fetch never follows a redirect of its own.
 */
export interface RedirectAnswer {
  buildId: string;
  url: string;
  status: 200;
  redirect: { location: string; status: 307 | 308 };
}

/**
 * The answer for a URL that is no page (a route handler answers it): the client loads it as a
 * document, whose answer is the handler's. The server never runs the handler for page data.
 */
export interface DocumentAnswer {
  buildId: string;
  url: string;
  status: 200;
  document: true;
}

export type PageDataAnswer = PageDataResponse | InterceptedAnswer | RedirectAnswer | DocumentAnswer;

export function isRedirectAnswer(answer: object): answer is RedirectAnswer {
  return 'redirect' in answer;
}

export function isDocumentAnswer(answer: object): answer is DocumentAnswer {
  return 'document' in answer;
}

export function isIntercepted(answer: object): answer is InterceptedAnswer {
  return 'intercept' in answer;
}
export interface PageDataError {
  error: 'server';
  digest: string;
}

/** The page-data URL for a target (`/photos/3?q=1`) when coming from `from` (`''` for none). */
export function pageDataUrl(target: string, from: string, mode?: DataMode, whole = false): string {
  const hash = target.indexOf('#');
  const path = hash >= 0 ? target.slice(0, hash) : target;
  const separator = path.includes('?') ? '&' : '?';
  // An empty `_sy` names no page, so nothing is trimmed against it anyway.
  const extra =
    (mode ? `&${PREFETCH_PARAM}=${mode}` : '') + (whole && from !== '' ? `&${WHOLE_PARAM}=1` : '');
  return `${path}${separator}${PAGE_DATA_PARAM}=${encodeURIComponent(from)}${extra}`;
}
