/**
 * The browser side of the router's effects: history, fetch, dynamic imports, timers, scroll,
 * focus and the screen-reader announcement. The composition root (`entry.tsx`) passes these to
 * `createRouter`; tests pass their own.
 */
import { decodePathname, matchRoute } from '../shared/match-route';
import { matchInterception } from '../shared/intercept';
import { buildRouteTree, COMPONENT_FILES, dirOf, type ComponentFile } from '../shared/route-tree';
import type { HistoryEntryState, Modules, RouterEffects, RouterSnapshot } from './router';
import type { RouterView } from './router-root';

type Importers = Readonly<Record<string, () => Promise<Record<string, unknown>>>>;

const LAST_HARD_NAVIGATION = 'switchyard:last-hard-navigation';

export function browserEffects(importers: Importers): RouterEffects {
  // The client knows the component files, which is enough to match a URL to its scripts.
  const tree = buildRouteTree(Object.keys(importers));
  const routeOf = (pathname: string) => {
    const segments = decodePathname(pathname);
    return segments ? matchRoute(tree, segments) : undefined;
  };
  const loadModules = async (files: readonly string[]): Promise<Modules> => {
    const loaded = await Promise.all(files.map((file) => importers[file]!()));
    return new Map(files.map((file, i) => [file, loaded[i]!.default]));
  };
  let keys = 0;
  return {
    currentHref: () => location.href,
    pushState: (state, href) => history.pushState(state, '', href),
    replaceState: (state, href) => history.replaceState(state, '', href),
    go: (delta) => history.go(delta),
    fetch: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
    loadModules,
    preloadRoute(pathname) {
      const match = routeOf(pathname);
      if (!match) return Promise.resolve();
      const files = match.branch.flatMap((node, i) =>
        COMPONENT_FILES.filter(
          (role: ComponentFile) => role !== 'page' || i === match.branch.length - 1,
        ).flatMap((role) => node.files[role] ?? []),
      );
      return loadModules(files);
    },
    hasLoadingState: (pathname) => routeOf(pathname)?.branch.some((node) => node.files.loading) ?? false,
    assign: (href) => location.assign(href),
    readScroll: () => ({ x: scrollX, y: scrollY }),
    now: () => Date.now(),
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    storage: {
      get: () => sessionStorage.getItem(LAST_HARD_NAVIGATION),
      set: (value) => sessionStorage.setItem(LAST_HARD_NAVIGATION, value),
    },
    newKey: () => `${Date.now().toString(36)}-${(keys++).toString(36)}`,
    reportError: (message, error) => console.error(message, error),
    interceptionOf(pathname, fromPathname) {
      const target = decodePathname(pathname);
      const from = decodePathname(fromPathname);
      const fromMatch = from && matchRoute(tree, from);
      const found = target && fromMatch ? matchInterception(tree, target, fromMatch) : undefined;
      if (!found) return undefined;
      const { owner, slot } = found.interception;
      return [dirOf(owner), `@${slot}`].filter(Boolean).join('/');
    },
    canPrefetch: () => {
      // Development serves every module fresh: prefetching would only slow it down.
      if (import.meta.env.DEV) return false;
      const connection = (navigator as { connection?: { saveData?: boolean } }).connection;
      return connection?.saveData !== true;
    },
  };
}

/** Reads our entry state out of `history.state`, which other code may have set to anything. */
export function readHistoryEntry(value: unknown): HistoryEntryState | null {
  if (typeof value !== 'object' || value === null) return null;
  const { key, scroll } = value as { key?: unknown; scroll?: { x?: unknown; y?: unknown } };
  if (typeof key !== 'string') return null;
  const valid = typeof scroll?.x === 'number' && typeof scroll.y === 'number';
  return valid ? { key, scroll: { x: scroll.x as number, y: scroll.y as number } } : { key };
}

export const browserView: RouterView = {
  afterCommit(snapshot: RouterSnapshot) {
    const { scroll } = snapshot;
    if (scroll.kind === 'top') window.scrollTo(0, 0);
    else if (scroll.kind === 'restore') window.scrollTo(scroll.x, scroll.y);
    else if (scroll.kind === 'hash') {
      const target = document.getElementById(decodeURIComponent(scroll.id));
      if (target) target.scrollIntoView();
      else window.scrollTo(0, 0);
    }
    if (!snapshot.announce) return; // the first render, a refresh, or data filling in a loading state
    // Focus goes to the new content, unless a dialog (an intercepted route) holds it.
    const dialog = document.querySelector<HTMLElement>('[role="dialog"][aria-modal="true"]');
    const main = document.querySelector<HTMLElement>('main') ?? document.body;
    if (!dialog) {
      if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
      main.focus({ preventScroll: true });
    }
    announcePage();
  },
};

let titleWatch: MutationObserver | undefined;

/**
 * Announces the new page by its title. A page behind a loading state gets its title later: the
 * announcement follows the title until the next page is announced (one observer at a time).
 */
function announcePage(): void {
  titleWatch?.disconnect();
  announce(document.title || document.querySelector('h1')?.textContent || location.pathname);
  titleWatch = new MutationObserver(() => {
    if (document.title) announce(document.title);
  });
  titleWatch.observe(document.head, { childList: true, subtree: true, characterData: true });
}

/** A visually hidden live region, outside React's tree, that screen readers read on change. */
function announce(message: string): void {
  let region = document.getElementById('switchyard-announcer');
  if (!region) {
    region = document.createElement('div');
    region.id = 'switchyard-announcer';
    region.setAttribute('aria-live', 'polite');
    region.setAttribute('role', 'status');
    region.style.cssText =
      'position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0';
    document.body.appendChild(region);
  }
  if (region.textContent !== message) region.textContent = message;
}
