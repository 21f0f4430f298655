/**
 * The client half of the page-data protocol (shared/page-data.ts): reading an answer, and
 * filling in the layout data the server left out because the client holds it.
 */
import {
  isIntercepted,
  PAGE_DATA_TYPE,
  type PageDataAnswer,
  type PageDataResponse,
} from '../shared/page-data.js';
import { DATA_KINDS, type PageState, type SegmentState } from '../shared/page-state.js';
import type { CachedPage, Page, SlotRules } from './router-types.js';

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
 * shows the answer over `held` at once, so its unmatched slots keep what `held` shows (by the
 * slots' rules, which an app without slots has no use for); a prefetch (`showOver` false) keeps
 * them until its entry is shown over whatever page is current then.
 */
export function mergeState(
  held: PageState | undefined,
  data: PageDataResponse,
  { showOver = true, slotRules }: { showOver?: boolean; slotRules?: SlotRules | undefined } = {},
): PageState {
  const { status: _status, ...state } = data;
  state.segments = state.segments.map((segment, i) => {
    if (!segment.reuseLayoutData) return segment;
    const mine = held?.segments[i];
    if (!mine || mine.dir !== segment.dir) throw new Error(`no layout data held for "${segment.dir}"`);
    const { reuseLayoutData: _reuse, ...rest } = segment;
    return mine.layoutData === undefined ? rest : { ...rest, layoutData: mine.layoutData };
  });
  return held && showOver && slotRules ? slotRules.keepUnmatched(held, state, false) : state;
}

/**
 * The page an answer gives when shown over `on`: an intercepted route goes into its slot; a
 * push or replace keeps what unmatched slots showed; back, forward and refresh take it as is.
 * Only an app with slots has intercepted answers, or slots to keep: `slotRules` are their rules.
 */
export function pageOver(
  on: Page,
  cached: CachedPage,
  kind: 'push' | 'replace' | 'pop' | 'refresh',
  slotRules?: SlotRules,
): Page {
  if (isIntercepted(cached)) {
    if (!slotRules) throw new Error(`switchyard: ${cached.url} came intercepted, in an app without slots`);
    return {
      state: slotRules.splice(on.state, cached),
      modules: new Map([...on.modules, ...cached.modules]),
    };
  }
  if ((kind !== 'push' && kind !== 'replace') || !slotRules) return cached;
  const state = slotRules.keepUnmatched(on.state, cached.state);
  return state === cached.state ? cached : { state, modules: new Map([...on.modules, ...cached.modules]) };
}

/** Whether a page stops at a loading state, what it stands for still to come (`pendingAt`). */
export function isPartial(page: CachedPage): boolean {
  return !isIntercepted(page) && page.state.pendingAt !== undefined;
}
