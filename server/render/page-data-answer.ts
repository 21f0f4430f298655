/**
 * The page-data answer (the protocol is in shared/page-data.ts): the page state as JSON, trimmed of the
 * layout data the client already holds.
 */
import type { Response } from 'express';
import { decodePathname, matchRoute, type RouteMatch } from '../../shared/match-route.js';
import type { DataMode, PageDataResponse, RedirectAnswer } from '../../shared/page-data.js';
import { segmentKey } from '../../shared/page-state.js';
import { dirOf } from '../../shared/route-tree.js';
import { cachePage, neverStore, sendServerError } from '../http/answers.js';
import { pageStatus } from '../request/request-scope.js';
import { sendJson } from '../http/compression.js';
import { encodeSegments, type LoaderFileOf } from './encode-data.js';
import type { ResolvedPage } from './resolve-page.js';
import type { RouteRuntime } from './route-runtime.js';

/**
 * Answers a page-data request with the page state as JSON, leaving out the layout data the
 * client holds: a segment it shares with the page it comes from (same node, same params), or,
 * for `rest`, the segments down to the loading state it shows. Data that cannot be sent throws
 * (`UnsendableDataError`) before anything is written.
 */
export function sendPageData(
  res: Response,
  page: ResolvedPage,
  fromMatch: RouteMatch | undefined,
  mode: DataMode | null,
  fileOf: LoaderFileOf,
  /** Development's stricter data check (see isPlainJson). */
  strict: boolean,
): void {
  const { state } = page;
  cachePage(res, page.status);
  // The client loads a page whose loader failed as a document, where its error.tsx renders.
  if (state.error || page.status === 500) {
    return sendServerError(res, state.error?.digest ?? '');
  }
  const held = new Set<string>();
  if (mode === 'rest') {
    // The client shows this page's loading state: it holds the segments down to that one.
    const cut = state.segments.findIndex((s) => s.files.loading);
    state.segments.slice(0, cut + 1).forEach((s) => held.add(segmentKey(s.dir, state.params)));
  } else {
    // A navigation or a prefetch says the page it is made from: the layouts shared with that
    // page (same folder, same params) the client holds. A prefetch that sends no page (nothing
    // held to trust) is answered whole.
    fromMatch?.branch.forEach((_, i) =>
      held.add(segmentKey(dirOf(fromMatch.branch.slice(0, i + 1)), fromMatch.params)),
    );
  }
  const body: PageDataResponse = {
    ...state,
    status: page.status,
    segments: encodeSegments(
      state.segments.map((segment) => {
        if (!held.has(segmentKey(segment.dir, state.params))) return segment;
        const { layoutData: _held, ...rest } = segment;
        return { ...rest, reuseLayoutData: true };
      }),
      fileOf,
      strict,
    ),
  };
  // The loader's status, as the document would have it: a page, data or not, answers the same.
  sendJson(res.status(pageStatus(res, page.status)), body);
}

/** The route of the page a client says it comes from (a path it may have made up). */
export function matchUrl(runtime: RouteRuntime, from: string): RouteMatch | undefined {
  const segments = from.startsWith('/') ? decodePathname(from.split(/[?#]/)[0]!) : undefined;
  return segments && matchRoute(runtime.tree, segments);
}

/**
 * A redirect as page data: the client router follows it as a soft navigation. `location` has
 * passed the redirect-target check; `url` is the page that was asked for.
 */
export function sendRedirectData(
  res: Response,
  buildId: string,
  url: string,
  location: string,
  status: 307 | 308,
): void {
  const body: RedirectAnswer = { buildId, url, status: 200, redirect: { location, status } };
  sendJson(neverStore(res).status(200), body);
}
