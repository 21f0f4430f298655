/**
 * The pages the router holds for back and forward, by history key: what a popstate shows with
 * no request, at the scroll position it was left at. Bounded: past `limit` the oldest goes (and
 * history returning to it fetches the page). A page whose path a server action revalidated is
 * marked stale: history returning to it fetches it again.
 */
import type { Revalidated } from '../shared/actions.js';
import { setNewest } from '../shared/lru.js';
import { isAffected } from '../shared/prefetch-cache.js';
import type { Page, SavedScroll } from './router-types.js';

export type HeldPage = Page & { scroll?: SavedScroll; stale?: true };

export function createHeldPages(limit: number) {
  // Map order is age order: holding a page again moves it to the end.
  const held = new Map<string, HeldPage>();
  return {
    get: (key: string) => held.get(key),

    hold: (key: string, page: HeldPage) => setNewest(held, key, page, limit),

    /** Remembers where the user left a page, for when history comes back to it. */
    keepScroll(key: string, scroll: SavedScroll): void {
      const page = held.get(key);
      if (page) held.set(key, { ...page, scroll });
    },

    /**
     * Marks every page that shows a revalidated path (or has it under a modal), the one on
     * screen too: its refresh replaces it when it commits, but a click may cancel that refresh.
     */
    markStale(paths: readonly Revalidated[]): void {
      for (const [key, page] of held) {
        const urls = [page.state.url, page.state.mainUrl].filter((url) => url !== undefined);
        const hit = urls.some((url) =>
          paths.some(({ path, type }) => isAffected(url.split('?')[0]!, path, type)),
        );
        if (hit) held.set(key, { ...page, stale: true });
      }
    },

    /** The page at `url` was fetched again (under a modal): pages held for that URL take it. */
    refresh(url: string, page: Page): void {
      for (const [key, kept] of held) {
        if (kept.state.url === url && kept.state.mainUrl === undefined) {
          held.set(key, { ...page, ...(kept.scroll ? { scroll: kept.scroll } : {}) });
        }
      }
    },
  };
}
