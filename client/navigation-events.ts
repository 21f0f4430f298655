/**
 * Navigations as the app sees them: each one starts once, with an id, and settles once with its
 * outcome, which its promise resolves to and a terminal event (`commit`, `abort` or `hard`) with
 * the same id tells every listener. Settling twice is a no-op, so the first outcome stands. A
 * listener that throws is reported and never stops the router or the other listeners. The router
 * may settle a navigation with `details` of what it did (navigation-details.ts records them,
 * only while someone listens), which the terminal event carries.
 */
import type {
  NavigationDetails,
  NavigationEvent,
  NavigationKind,
  NavigationListener,
  NavigationOutcome,
} from './router-types.js';

/** One navigation under way: settle it once, with how it ended. */
export interface StartedNavigation {
  id: number;
  settle(outcome: NavigationOutcome, details?: NavigationDetails): void;
  /** Resolves with the outcome; never rejects. */
  outcome: Promise<NavigationOutcome>;
}

export interface NavigationEvents {
  subscribe(listener: NavigationListener): () => void;
  /** Emits `start` and returns the navigation to settle. */
  start(kind: NavigationKind, url: string): StartedNavigation;
  /** Whether anyone listens now: what a navigation did is worth recording only then. */
  listening(): boolean;
}

export const SUPERSEDED: NavigationOutcome = { status: 'aborted', reason: 'superseded' };

export function createNavigationEvents(
  reportError: (message: string, error?: unknown) => void = console.error,
): NavigationEvents {
  const listeners = new Set<NavigationListener>();
  let lastId = 0;

  function emit(event: NavigationEvent): void {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch (error) {
        reportError('switchyard: a navigation listener threw', error);
      }
    }
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    listening: () => listeners.size > 0,
    start(kind, url) {
      const id = ++lastId;
      let resolve!: (outcome: NavigationOutcome) => void;
      const outcome = new Promise<NavigationOutcome>((r) => (resolve = r));
      let settled = false;
      emit({ type: 'start', id, url, kind });
      return {
        id,
        outcome,
        settle(result, details) {
          if (settled) return;
          settled = true;
          emit(terminalEvent(id, result, details));
          resolve(result);
        },
      };
    },
  };
}

/** The terminal event's type for each outcome: the event is the outcome under that name. */
const TERMINAL = { committed: 'commit', aborted: 'abort', hard: 'hard' } as const;

function terminalEvent(
  id: number,
  { status, ...outcome }: NavigationOutcome,
  details: NavigationDetails | undefined,
): NavigationEvent {
  return { type: TERMINAL[status], id, ...outcome, ...(details && { details }) } as NavigationEvent;
}
