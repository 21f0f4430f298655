/**
 * The client half of the page-data protocol (shared/page-data.ts): reading an answer, and
 * filling in the layout data the server left out because the client holds it.
 */
import {
  isIntercepted,
  PAGE_DATA_TYPE,
  type InterceptedAnswer,
  type PageDataAnswer,
  type PageDataResponse,
} from '../shared/page-data.js';
import {
  DATA_KINDS,
  segmentKey,
  type PageState,
  type SegmentState,
  type SlotState,
} from '../shared/page-state.js';
import type { CachedPage, Page } from './router-types.js';

/**
 * Anything but a JSON page state (a 5xx, a proxy's HTML page) is a failed fetch. A body the
 * client will not read is cancelled: left alone, the browser keeps its request open (and its
 * connection busy) until the next full page load. The loader data that came encoded (a `Date`,
 * a `Map`…) is rebuilt before the answer is returned. `onBody` learns the body's length.
 */
export async function readPageData(
  response: Response,
  onBody?: (chars: number) => void,
): Promise<PageDataAnswer> {
  const type = response.headers.get('content-type');
  const failure =
    response.status >= 500
      ? `page data answered ${response.status}`
      : !type?.startsWith(PAGE_DATA_TYPE)
        ? `page data came as ${type ?? 'nothing'}`
        : undefined;
  if (failure) {
    discardBody(response);
    throw new Error(failure);
  }
  const text = await response.text();
  onBody?.(text.length);
  const answer = JSON.parse(text) as PageDataAnswer;
  const segments = isIntercepted(answer)
    ? answer.intercept.state.segments
    : 'segments' in answer
      ? answer.segments
      : [];
  const encoded = encodedSegments(segments);
  if (encoded.length > 0) {
    // devalue loads with the first answer that needs it: plain JSON data never pays for it.
    const { unflatten } = await import('devalue');
    for (const segment of encoded) {
      const data = segment.encoded ?? {};
      for (const kind of DATA_KINDS) {
        if (Object.hasOwn(data, kind)) segment[kind] = unflatten(data[kind] as number | unknown[]);
      }
      delete segment.encoded;
    }
  }
  return answer;
}

/** The segments whose loader data came encoded, slots included. */
function encodedSegments(segments: readonly SegmentState[]): SegmentState[] {
  return segments.flatMap((segment) => [
    ...(segment.encoded ? [segment] : []),
    ...Object.values(segment.slots ?? {}).flatMap((slot) => encodedSegments(slot.segments)),
  ]);
}

/** Ends a response's request without reading it. */
export function discardBody(response: Response): void {
  if (response.bodyUsed) return;
  response.body?.cancel().catch(() => {}); // an already errored stream has nothing left to end
}

/**
 * The full state from an answer: segments marked `reuseLayoutData` take their data from the
 * same segment of `held`. With nothing to take it from, the answer cannot be used. A navigation
 * shows the answer over `held` at once, so its unmatched slots keep what `held` shows; a prefetch
 * (`showOver` false) keeps them until its entry is shown over whatever page is current then.
 */
export function mergeState(held: PageState | undefined, data: PageDataResponse, showOver = true): PageState {
  const { status: _status, ...state } = data;
  state.segments = state.segments.map((segment, i) => {
    if (!segment.reuseLayoutData) return segment;
    const mine = held?.segments[i];
    if (!mine || mine.dir !== segment.dir) throw new Error(`no layout data held for "${segment.dir}"`);
    const { reuseLayoutData: _reuse, ...rest } = segment;
    return mine.layoutData === undefined ? rest : { ...rest, layoutData: mine.layoutData };
  });
  return held && showOver ? keepUnmatchedSlots(held, state, false) : state;
}

/**
 * The page with an intercepted route shown in one slot: every other segment stays as
 * `on` has it, and `mainUrl` remembers what they were rendered for.
 */
export function spliceIntercepted(on: PageState, answer: InterceptedAnswer): PageState {
  const { at, slot, state } = answer.intercept;
  if (!on.segments.some((s) => s.dir === at)) throw new Error(`no segment "${at}" to show ${answer.url} in`);
  return {
    ...on,
    url: answer.url,
    mainUrl: on.mainUrl ?? on.url,
    segments: on.segments.map((s) => (s.dir === at ? { ...s, slots: { ...s.slots, [slot]: state } } : s)),
  };
}

/**
 * A soft navigation's slots: a slot in which nothing matched keeps the page it showed, if its
 * segment stays (same folder, same params) — unless that page was an intercepted route, which
 * closes. A slot sent `unmatched` (no `default.tsx` to fall back on) must keep its page: with
 * none to keep it throws, and the router loads the URL as a document, which is a not-found.
 * The children of a layout whose URL only a slot matched (`slotOnly`) are kept the same way.
 * `keepPages` false (a refresh, back, forward) keeps only what has no default to show.
 */
export function keepUnmatchedSlots(on: PageState, next: PageState, keepPages = true): PageState {
  const stays = (i: number, dir: string) =>
    on.segments[i]?.dir === dir && segmentKey(dir, on.params) === segmentKey(dir, next.params);
  let kept = false;
  let segments = next.segments.map((segment, i) => {
    if (!segment.slots) return segment;
    const slots: Record<string, SlotState> = { ...segment.slots };
    for (const [name, slot] of Object.entries(segment.slots)) {
      const shown = stays(i, segment.dir) ? on.segments[i]!.slots?.[name] : undefined;
      const keepable = shown?.shows === 'page' && !shown.intercepted;
      if (slot.shows === 'unmatched') {
        if (!keepable) throw nothingToShow(`the slot @${name} of "${segment.dir}" has`, next);
      } else if (!(keepPages && slot.shows === 'default' && keepable)) {
        continue;
      }
      slots[name] = shown!;
      kept = true;
    }
    return { ...segment, slots };
  });
  const { slotOnly, ...rest } = next;
  const n = segments.length;
  const last = segments[n - 1]!;
  if (slotOnly && (keepPages || !last.files.default)) {
    const mine = on.segments[n - 1];
    const keepable = !on.notFound && on.pendingAt === undefined && segments.every((s, i) => stays(i, s.dir));
    if (mine && keepable) {
      // The children keep what they showed: the page of this segment, or the segments below it.
      const { default: _default, ...files } = last.files;
      const merged: SegmentState = {
        ...last,
        files: mine.files.page ? { ...files, page: mine.files.page } : files,
      };
      if (mine.pageData !== undefined) merged.pageData = mine.pageData;
      segments = [...segments.slice(0, n - 1), merged, ...on.segments.slice(n)];
      return assertAllShown({ ...rest, segments });
    }
    if (!last.files.default) throw nothingToShow(`the children of "${last.dir}" have`, next);
  }
  return assertAllShown(kept ? { ...next, segments } : next);
}

/** `subject` with its verb: `the slot @views of "ptb" has`. */
function nothingToShow(subject: string, next: PageState): Error {
  return new Error(`${subject} nothing to show at ${next.url}`);
}

/** An `unmatched` slot deeper down (a slot inside a slot) is left to a document load too. */
function assertAllShown(state: PageState): PageState {
  const check = (segments: readonly SegmentState[]): void => {
    for (const slot of segments.flatMap((s) => Object.values(s.slots ?? {}))) {
      if (slot.shows === 'unmatched') throw nothingToShow('a slot inside a slot has', state);
      check(slot.segments);
    }
  };
  check(state.segments);
  return state;
}

/**
 * The page an answer gives when shown over `on`: an intercepted route goes into its slot; a
 * push or replace keeps what unmatched slots showed; back, forward and refresh take it as is.
 */
export function pageOver(on: Page, cached: CachedPage, kind: 'push' | 'replace' | 'pop' | 'refresh'): Page {
  if (isIntercepted(cached)) {
    return {
      state: spliceIntercepted(on.state, cached),
      modules: new Map([...on.modules, ...cached.modules]),
    };
  }
  if (kind !== 'push' && kind !== 'replace') return cached;
  const state = keepUnmatchedSlots(on.state, cached.state);
  return state === cached.state ? cached : { state, modules: new Map([...on.modules, ...cached.modules]) };
}

/** Whether a page stops at a loading state, what it stands for still to come (`pendingAt`). */
export function isPartial(page: CachedPage): boolean {
  return !isIntercepted(page) && page.state.pendingAt !== undefined;
}
