/**
 * Loader data that streams: on a document request the loaders at and below the first
 * `loading.tsx` do not hold up the shell. Their segment holds a tracked thenable in place of the
 * data, which React's `use()` reads: synchronously once settled, suspending until then. The
 * page state lists those places in `streamed`; each settles once, on both sides, from a payload.
 */
import type { HeadTag } from './head.js';
import { DATA_KINDS, type DataKind, type PageState, type SegmentState } from './page-state.js';
import type { SignalData } from './router-signals.js';

/** A promise whose outcome can be read synchronously, the shape React's `use()` understands. */
export type Tracked<T = unknown> = Promise<T> & {
  status: 'pending' | 'fulfilled' | 'rejected';
  value?: T;
  reason?: unknown;
};

/**
 * What settles a streamed place: its data, a router signal, or the digest of a server error.
 * Data that changes the page's head comes with the page's new head tags.
 */
export type StreamedPayload =
  { value: unknown; head?: HeadTag[] } | { signal: SignalData } | { digest: string };

/** The global the document's streamed scripts push `[id, payload]` pairs onto. */
export const STREAM_GLOBAL = '__SY_S';

/** A streamed place: a segment's folder and which of its data it is (`photos/[id]#pageData`). */
export function streamedId(dir: string, kind: DataKind): string {
  return `${dir}#${kind}`;
}

export function track<T>(promise: Promise<T>): Tracked<T> {
  const tracked = promise as Tracked<T>;
  tracked.status = 'pending';
  // Block bodies: returning `tracked` here would chain a second, unhandled rejection onto it.
  void promise.then(
    (value) => {
      tracked.status = 'fulfilled';
      tracked.value = value;
    },
    (reason: unknown) => {
      tracked.status = 'rejected';
      tracked.reason = reason;
    },
  );
  // The page state is serialised into the document: a streamed place is left out of it (JSON
  // drops a property whose toJSON gives undefined), and `streamed` says it comes later.
  Reflect.defineProperty(tracked, 'toJSON', { value: () => undefined });
  return tracked;
}

export function isTracked(value: unknown): value is Tracked {
  return value instanceof Promise && typeof (value as Partial<Tracked>).status === 'string';
}

/** Every segment of a state, slots included, outermost first. */
function allSegments(segments: readonly SegmentState[]): SegmentState[] {
  return segments.flatMap((s) => [
    s,
    ...Object.values(s.slots ?? {}).flatMap((slot) => allSegments(slot.segments)),
  ]);
}

/** The streamed places of a state (server side: where its loaders left a tracked promise). */
export function streamedPlaces(
  state: PageState,
): { id: string; dir: string; kind: DataKind; data: Tracked }[] {
  return allSegments(state.segments).flatMap((segment) =>
    DATA_KINDS.flatMap((kind) => {
      const { dir, [kind]: data } = segment;
      return isTracked(data) ? [{ id: streamedId(dir, kind), dir, kind, data }] : [];
    }),
  );
}

/** How the client settles one streamed place. */
export interface Settler {
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/**
 * Client side: puts a tracked promise in each place `state.streamed` names, and returns how to
 * settle one. Unknown ids are ignored: a payload can only fill a place the state announced.
 */
export function awaitStreamed(state: PageState): Map<string, Settler> {
  const wanted = new Set(state.streamed ?? []);
  const settlers = new Map<string, Settler>();
  for (const segment of allSegments(state.segments)) {
    for (const kind of DATA_KINDS) {
      const id = streamedId(segment.dir, kind);
      if (!wanted.has(id)) continue;
      segment[kind] = track(new Promise((resolve, reject) => settlers.set(id, { resolve, reject })));
    }
  }
  return settlers;
}
