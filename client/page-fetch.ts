/**
 * What a navigation fetches: one page-data request and the modules the answer needs, with the
 * route-script timeout around the modules. Anything that is not a usable page — a failed
 * request, another build, a redirect to follow, a URL that is no page, scripts too slow — is thrown, for the router to
 * decide what the navigation does next.
 */
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
import type { RouterEffects } from './router-types.js';

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

  /**
   * Fetches page data and the modules it needs; `mode` says what for (shared/page-data.ts).
   * `whole` asks for every layout's data: what `base` holds may be out of date.
   */
  async function fetchPage(
    url: URL,
    from: string,
    mode: DataMode | undefined,
    signal: AbortSignal,
    base: PageState | undefined,
    whole = false,
  ) {
    const response = await effects.fetch(pageDataUrl(url.pathname + url.search, from, mode, whole), {
      signal,
      headers: { accept: PAGE_DATA_TYPE },
    });
    const data = await readPageData(response);
    if (data.buildId !== buildId) throw new Error('a new build was deployed');
    if (isRedirectAnswer(data)) throw new FollowRedirect(data.redirect.location);
    if (isDocumentAnswer(data)) throw new LoadDocument(url.href);
    if (isIntercepted(data)) {
      const files = segmentFilesOf(data.intercept.state.segments);
      return { ...data, modules: await loadWithin(effects.loadModules(files)) };
    }
    const state = mergeState(base, data);
    return { state, modules: await loadWithin(effects.loadModules(filesOf(state))) };
  }

  return { fetchPage, loadWithin };
}
