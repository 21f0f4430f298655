/**
 * View transitions: a commit asked to animate runs inside `document.startViewTransition`, once,
 * with the update rendered synchronously in its callback so that the new page is what the
 * browser captures. Never where the browser has no such API, and never when the user asked for
 * reduced motion: then the update simply runs. While a transition runs, `<html
 * data-navigation="forward|back">` tells CSS the direction; it goes when the transition ends.
 *
 * The browser calls the update once it has captured the old page, at its next rendered frame:
 * until then the old page stays on screen, under the new URL. Under load that frame can be more
 * than a second away, so a commit never waits on it for long: a new transition first skips the
 * one still running, and an update the browser has not called within `CAPTURE_BUDGET_MS` runs by
 * itself, without animation.
 */

/** How long a commit waits for the browser to capture the old page before it renders anyway. */
export const CAPTURE_BUDGET_MS = 500;

export type NavigationDirection = 'forward' | 'back';

/** The part of a `ViewTransition` the runner uses. */
export interface ViewTransitionHandle {
  ready: Promise<unknown>;
  finished: Promise<unknown>;
  skipTransition(): void;
}

/** The part of `document` a view transition needs; tests pass a stub. */
export interface TransitionDocument {
  startViewTransition?: (update: () => void) => ViewTransitionHandle;
  documentElement: {
    setAttribute(name: string, value: string): void;
    removeAttribute(name: string): void;
  };
}

export interface TransitionHost {
  document: TransitionDocument;
  /** Whether the user asks for reduced motion now (`prefers-reduced-motion: reduce`). */
  reducedMotion(): boolean;
  /** Runs an update and renders it before returning (React's `flushSync`). */
  flush(update: () => void): void;
}

/** Runs `update` (a commit's render) inside a view transition where one may run. */
export type RunTransition = (direction: NavigationDirection, update: () => void) => void;

export function createViewTransitions(host: TransitionHost): RunTransition {
  const { document } = host;
  /** Counts transitions: only the latest one's end removes the direction. */
  let started = 0;
  let running: ViewTransitionHandle | undefined;
  return (direction, update) => {
    if (!document.startViewTransition || host.reducedMotion()) {
      update();
      return;
    }
    const run = ++started;
    const root = document.documentElement;
    running?.skipTransition();
    root.setAttribute('data-navigation', direction);
    let updated = false;
    const once = () => {
      if (updated) return;
      updated = true;
      clearTimeout(fallback);
      host.flush(update);
    };
    const fallback = setTimeout(() => {
      if (updated) return;
      transition.skipTransition();
      once();
    }, CAPTURE_BUDGET_MS);
    const transition = document.startViewTransition(once);
    running = transition;
    // `ready` rejects when the transition is skipped (by a newer one, or past the budget): the
    // update runs all the same, so there is nothing to report.
    transition.ready.catch(() => {});
    // `finished` rejects only when the update failed, which the router has reported already.
    transition.finished
      .catch(() => {})
      .finally(() => {
        if (running === transition) running = undefined;
        if (run === started) root.removeAttribute('data-navigation');
      });
  };
}

/** What a history entry keeps for view transitions: its place, and how it was entered. */
export interface EntryPlace {
  /** Its position among the app's history entries: a pop to a lower one goes back. */
  index: number;
  /** The navigation that made this entry ran a view transition. */
  viewTransition?: true;
}

/** An entry's place; one the router did not write (or wrote before it kept places) is the first. */
export function placeOf(entry: Partial<EntryPlace> | null): EntryPlace {
  const index = entry?.index ?? 0;
  return entry?.viewTransition ? { index, viewTransition: true } : { index };
}

/**
 * Whether a pop from one entry to another runs a view transition, and in which direction: the
 * move between two entries animates both ways if the later of the two was entered with one.
 */
export function popTransition(from: EntryPlace, to: EntryPlace): NavigationDirection | undefined {
  if (to.index === from.index) return undefined;
  const back = to.index < from.index;
  const later = back ? from : to;
  if (!later.viewTransition) return undefined;
  return back ? 'back' : 'forward';
}
