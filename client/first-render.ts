/**
 * A navigation's first render: from a cache entry (`fromEntry`), or from a fetch of its own
 * (`fetchOwn`), with what is to be fetched behind its loading state afterwards. The rules are
 * shared/cache-decision.ts's; this is where they meet the network and the clock.
 */
import { planFromEntry, planOwnFetch } from '../shared/cache-decision.js';
import { isIntercepted, type DataMode } from '../shared/page-data.js';
import type { EntryStatus } from '../shared/prefetch-status.js';
import type { Deadline } from './deadline.js';
import type { TimedNavigation } from './navigation-details.js';
import { isPartial, pageOver } from './page-data-client.js';
import type { PageFetcher } from './page-fetch.js';
import { settled, type Found, type Prefetcher } from './prefetcher.js';
import type { CachedPage, NavigationKind, Page, RouterEffects } from './router-types.js';
import type { Screen } from './screen.js';

/**
 * One attempt in flight: the navigation it serves (one across its redirects, each an attempt of
 * its own), what aborts its fetches, and its time budget.
 */
export interface Attempt {
  started: TimedNavigation;
  controller: AbortController;
  /** Starts at the click; bounds the wait on a prefetch still on its way, and on its scripts. */
  budget: Deadline;
}

/** Where a navigation's first render comes from: a cache entry and its status. */
export interface CacheSource {
  entry: Found['entry'];
  status: Exclude<EntryStatus, 'expired'>;
  /** The entry is the intercepted variant: refetching it must say where the user is. */
  intercepted: boolean;
}

/** A first render, and what to fetch behind its loading state afterwards. */
export interface FirstRender {
  page: CachedPage;
  after: DataMode | undefined;
}

export interface FirstRenderOptions {
  effects: RouterEffects;
  pages: PageFetcher;
  prefetcher: Prefetcher;
  screen: Screen;
}

export function createFirstRender({ effects, pages, prefetcher, screen }: FirstRenderOptions) {
  /**
   * From a cache entry. Waiting for a prefetch still on its way counts against the budget: a hung
   * one ends in a hard navigation. One that fails meanwhile gives `undefined`, and the navigation
   * fetches for itself.
   */
  async function fromEntry(
    attempt: Attempt,
    target: URL,
    source: CacheSource,
    from: string,
    scripts: Promise<unknown>,
  ): Promise<FirstRender | undefined> {
    const { started, budget } = attempt;
    const waiting = budget.race(settled(source.entry).catch(() => undefined));
    const prefetched = await (source.entry.result.state === 'pending'
      ? started.time('prefetch', () => waiting)
      : waiting);
    if (!prefetched) return undefined;
    await budget.race(scripts);
    const plan = planFromEntry(source.status, isPartial(prefetched));
    if (plan.first === 'entry') return { page: prefetched, after: plan.after };
    // Nothing held is merged into it: named only for the interception, it is asked for whole.
    const fetching = started.time('request', () =>
      pages.fetchPage(target, {
        from: source.intercepted ? from : '',
        mode: 'full',
        signal: attempt.controller.signal,
        whole: true,
      }),
    );
    // The new data takes the stale entry's place, as a navigation's own fetch does.
    prefetcher.addTemporary(target, fetching, attempt.controller.signal);
    return { page: await fetching, after: undefined };
  }

  /**
   * With nothing usable in the cache. The data's wait is the server's; once it is in, the
   * scripts have a budget of their own. Under an intercepted route, a refresh refreshes the page
   * under it too.
   */
  async function fetchOwn(
    attempt: Attempt,
    target: URL,
    kind: NavigationKind,
    from: string,
    scripts: Promise<unknown>,
    leaving: Page,
  ): Promise<FirstRender> {
    const { started } = attempt;
    const plan = planOwnFetch(kind, effects.hasLoadingState?.(target.pathname) ?? false);
    const under = kind === 'refresh' ? screen.getSnapshot().state.mainUrl : undefined;
    const ask = (url: URL, from: string, mode: DataMode | undefined) =>
      started.time('request', () =>
        pages.fetchPage(url, {
          from,
          mode,
          signal: attempt.controller.signal,
          base: leaving.state,
          whole: screen.layoutsOutOfDate(),
        }),
      );
    const fetching = ask(target, from, plan.mode);
    if (plan.temporary) prefetcher.addTemporary(target, fetching, attempt.controller.signal);
    const below = under ? ask(new URL(under, target), under, undefined) : undefined;
    const [page, main] = await Promise.all([fetching, below]);
    await pages.loadWithin(scripts);
    if (main && !isIntercepted(main)) {
      screen.held.refresh(under!, main);
      if (isIntercepted(page))
        return { page: pageOver(main, page, 'refresh', effects.slotRules), after: undefined };
    }
    return { page, after: planFromEntry('fresh', isPartial(page)).after };
  }

  return { fromEntry, fetchOwn };
}
