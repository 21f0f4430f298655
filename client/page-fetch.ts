/**
 * What a navigation fetches: one page-data request and the modules the answer needs, with the
 * route-script timeout around the modules (SPEC N2, N4). Anything that is not a usable page —
 * a failed request, another build, a redirect to follow, scripts too slow — is thrown, for the
 * router to decide what the navigation does next.
 */
import {
  isIntercepted,
  isRedirectAnswer,
  PAGE_DATA_TYPE,
  pageDataUrl,
  type DataMode,
} from '../shared/page-data';
import { filesOf, segmentFilesOf, type PageState } from '../shared/page-state';
import { mergeState, readPageData } from './page-data-client';
import type { RouterEffects } from './router-types';

export class TimeoutError extends Error {}

/** A loader redirected: the navigation goes on to `location` instead (SPEC E2). */
export class FollowRedirect extends Error {
  constructor(readonly location: string) {
    super(`redirect to ${location}`);
  }
}

export function createPageFetcher(effects: RouterEffects, buildId: string, routeScriptTimeoutMs: number) {
  function withTimeout<T>(promise: Promise<T>): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = effects.setTimeout(
        () => reject(new TimeoutError('route scripts timed out')),
        routeScriptTimeoutMs,
      );
      promise.then(
        (value) => {
          effects.clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          effects.clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  /** Fetches page data and the modules it needs; `mode` says what for (shared/page-data.ts). */
  async function fetchPage(
    url: URL,
    from: string,
    mode: DataMode | undefined,
    signal: AbortSignal,
    base: PageState | undefined,
  ) {
    const response = await effects.fetch(pageDataUrl(url.pathname + url.search, from, mode), {
      signal,
      headers: { accept: PAGE_DATA_TYPE },
    });
    const data = await readPageData(response);
    if (data.buildId !== buildId) throw new Error('a new build was deployed');
    if (isRedirectAnswer(data)) throw new FollowRedirect(data.redirect.location);
    if (isIntercepted(data)) {
      const files = segmentFilesOf(data.intercept.state.segments);
      return { ...data, modules: await withTimeout(effects.loadModules(files)) };
    }
    const state = mergeState(base, data);
    return { state, modules: await withTimeout(effects.loadModules(filesOf(state))) };
  }

  return { withTimeout, fetchPage };
}
