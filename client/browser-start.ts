/**
 * What the entry needs before the router's code has loaded: our entry in `history.state`, the
 * route modules of the page the server rendered, the view of the first commit, and the effects
 * the router shares with its stand-in (`lazy-router.ts`).
 */
import type { RouterView } from './router-root.js';
import type { HistoryEntryState, Modules, RouterEffects } from './router-types.js';

/** The address, full page loads, history moves and timers: the browser's, for both routers. */
export const pageEffects = {
  currentHref: () => location.href,
  assign: (href: string) => location.assign(href),
  /** Loads the document's URL again: where `assign` to a URL with a hash would only scroll. */
  reload: () => location.reload(),
  go: (delta: number) => history.go(delta),
  setTimeout: (callback: () => void, ms: number): unknown => setTimeout(callback, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  guardUnload: (shouldBlock: (() => boolean) | null) => {
    if (unloadListener) removeEventListener('beforeunload', unloadListener);
    unloadListener = shouldBlock && promptBeforeUnload(shouldBlock);
    if (unloadListener) addEventListener('beforeunload', unloadListener);
  },
} satisfies Pick<
  RouterEffects,
  'currentHref' | 'assign' | 'go' | 'setTimeout' | 'clearTimeout' | 'guardUnload'
> & {
  reload(): void;
};

let unloadListener: ((event: BeforeUnloadEvent) => void) | null = null;

/** The browser's own "leave site?" prompt: both calls, as browsers differ in which they honour. */
const promptBeforeUnload = (shouldBlock: () => boolean) => (event: BeforeUnloadEvent) => {
  if (!shouldBlock()) return;
  event.preventDefault();
  event.returnValue = '';
};

export type Importers = Readonly<Record<string, () => Promise<Record<string, unknown>>>>;

/** Imports route files' modules (`import.meta.glob`'s importers): what `renderRoute` reads of each. */
export function loadRouteModules(importers: Importers, files: readonly string[]): Promise<Modules> {
  const done = imported.get(importers) ?? new Map<string, Record<string, unknown>>();
  imported.set(importers, done);
  // Modules imported before are handed over at once. A dynamic import of a module the browser
  // already holds still settles a task later: a prefetched click would wait for that task, and
  // paint its pending state in a frame of its own before the new page.
  if (files.every((file) => done.has(file)))
    return Promise.resolve(new Map(files.map((file) => [file, done.get(file)!])));
  return Promise.all(
    files.map(
      (file) => done.get(file) ?? importers[file]!().then((module) => (done.set(file, module), module)),
    ),
  ).then((modules) => new Map(files.map((file, i) => [file, modules[i]!])));
}

/** The modules each set of importers gave: at most one per route file of the app. */
const imported = new WeakMap<Importers, Map<string, Record<string, unknown>>>();

/** Reads our entry state out of `history.state`, which other code may have set to anything. */
export function readHistoryEntry(value: unknown): HistoryEntryState | null {
  if (typeof value !== 'object' || value === null) return null;
  const { key, scroll, index, viewTransition } = value as {
    key?: unknown;
    scroll?: { x?: unknown; y?: unknown };
    index?: unknown;
    viewTransition?: unknown;
  };
  if (typeof key !== 'string') return null;
  const entry: HistoryEntryState = { key };
  if (typeof scroll?.x === 'number' && typeof scroll.y === 'number')
    entry.scroll = { x: scroll.x, y: scroll.y };
  if (Number.isSafeInteger(index)) entry.index = index as number;
  if (viewTransition === true) entry.viewTransition = true;
  return entry;
}

/**
 * The view of the first commit, the only one before the router runs: a reload restores the
 * scroll position the router saved. Later commits get `browserView` (browser-view.ts).
 */
export const firstView: RouterView = {
  afterCommit({ scroll }) {
    if (scroll.kind === 'restore') window.scrollTo(scroll.x, scroll.y);
  },
};
