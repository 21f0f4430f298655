/**
 * Which route modules' heads a page state shows, and the head they make together. The sources
 * are the modules that render, root first, each with the data and params its component gets:
 * the layouts, then what shows at the leaf (the page, a `default.tsx`, the not-found page), then
 * an intercepted route shown in a slot, whose URL is the one in the address bar. A slot that
 * shows an ordinary page or its default adds nothing: the URL is the children's.
 */
import { headTags, type Head, type HeadTag } from './head.js';
import type { Params } from './match-route.js';
import type { PageState, SegmentState, SlotState } from './page-state.js';
import { isTracked } from './streamed-data.js';

export interface HeadSource {
  file: string;
  kind: 'layout' | 'page';
  data: unknown;
  params: Params;
}

/**
 * @param readStreamed Whether data that streamed in (below a `loading.tsx`) may be read. Not
 *   while the document's head is rendered, nor while the browser hydrates it: the head went out
 *   before that data. A place whose data is not there (still on its way, or failed) adds no head.
 */
export function headSources(state: PageState, readStreamed: boolean): HeadSource[] {
  const sources: HeadSource[] = [];
  const add = (file: string | undefined, kind: HeadSource['kind'], data: unknown, params: Params) => {
    if (file === undefined) return;
    if (isTracked(data)) {
      if (!readStreamed || data.status !== 'fulfilled') return;
      data = data.value;
    }
    sources.push({ file, kind, data, params });
  };
  const intercepted: SlotState[] = [];
  /** The layouts of a run of segments; the intercepted routes their slots show come after the leaf. */
  const layouts = (run: readonly SegmentState[], params: Params) => {
    for (const segment of run) {
      add(segment.files.layout, 'layout', segment.layoutData, params);
      for (const slot of Object.values(segment.slots ?? {})) {
        if (slot.intercepted && slot.shows === 'page') intercepted.push(slot);
      }
    }
  };
  const { segments, pendingAt, params } = state;
  // A partial state renders down to its pending segment's layout; a caught error, no leaf.
  layouts(pendingAt === undefined ? segments : segments.slice(0, pendingAt + 1), params);
  if (pendingAt === undefined && state.error === undefined) {
    const last = segments.at(-1);
    if (state.notFound) add(state.notFound, 'page', undefined, params);
    else add(last?.files.page ?? last?.files.default, 'page', last?.pageData, params);
  }
  // The list grows while it is read: an intercepted route's own slots come after it.
  for (let i = 0; i < intercepted.length; i++) {
    const slot = intercepted[i]!;
    layouts(slot.segments, slot.params);
    const end = slot.segments.at(-1)!;
    add(end.files.page, 'page', end.pageData, slot.params);
  }
  return sources;
}

/**
 * The head tags of a page from its sources' heads (in `headSources` order). A not-found or error page
 * names itself (with its own `<title>`, or a not-found page's `head`): the layouts' title is
 * left out, where it would name the page that is not there. A not-found page is not indexed.
 */
export function pageHeadTags(
  state: PageState,
  sources: readonly HeadSource[],
  heads: readonly Head[],
): HeadTag[] {
  const notFound = isNotFoundPage(state);
  if (!notFound && !state.error) return headTags(heads);
  const named = heads.map((head, i) => {
    if (sources[i]!.kind !== 'layout') return head;
    const { title: _title, ...rest } = head;
    return rest;
  });
  if (notFound) {
    // Over the layouts' robots, under the not-found page's own.
    const leaf = sources.findIndex((source) => source.kind === 'page');
    named.splice(leaf < 0 ? named.length : leaf, 0, { robots: 'noindex' });
  }
  return headTags(named);
}

/** A not-found page: the app's `not-found.tsx`, or the built-in one where nothing shows at the leaf. */
function isNotFoundPage(state: PageState): boolean {
  if (state.notFound !== undefined) return true;
  const last = state.segments.at(-1);
  return state.pendingAt === undefined && !state.error && !last?.files.page && !last?.files.default;
}
