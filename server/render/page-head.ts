/**
 * The head of a page state, made on the server: which route modules' heads it shows, each run
 * with the data and params its component gets, merged into the tags the browser renders. The
 * sources are the modules that render, root first: the layouts, then what shows at the leaf (the
 * page, a `default.tsx`, the not-found page). An intercepted route shown in a slot, whose URL is
 * the one in the address bar, has a head of its own that the browser lays over the page's. A
 * slot that shows an ordinary page or its default adds nothing: the URL is the children's.
 */
import type { Head, HeadChange, HeadTag } from '../../shared/head.js';
import type { Params } from '../../shared/match-route.js';
import type { PageState, SlotState } from '../../shared/page-state.js';
import { isTracked } from '../../shared/streamed-data.js';
import type { ModuleMap } from '../../client/render-route.js';
import { headChanges, headTags, readHead } from './head-tags.js';

export interface HeadSource {
  file: string;
  kind: 'layout' | 'page';
  data: unknown;
  params: Params;
}

/**
 * The tags of a page state's head. A state the server made has no intercepted route in its
 * slots: one comes in an answer of its own, with its head (`interceptedHead`), which the
 * browser lays over the head of the page it is shown over.
 * @param readStreamed Whether data that streamed in (below a `loading.tsx`) is read: not for the
 *   document's shell, which goes out before it. A place whose data is not there adds no head.
 */
export function pageHead(state: PageState, modules: ModuleMap, readStreamed = false): HeadTag[] {
  // Without a `head` export only a not-found page has a tag (it is not indexed): most pages.
  if (!exportsHead(modules) && !isNotFoundPage(state)) return [];
  const sources = headSources(state, readStreamed);
  return pageHeadTags(
    state,
    sources,
    sources.map((source) => headOf(source, modules)),
  );
}

/** Whether any of the modules exports a `head`: without one, no data changes a page's tags. */
export function exportsHead(modules: ModuleMap): boolean {
  for (const module of modules.values()) if (module.head !== undefined) return true;
  return false;
}

/** What an intercepted route shown in a slot changes in the head of the page under it. */
export function interceptedHead(slot: SlotState, modules: ModuleMap): HeadChange[] {
  return headChanges(slotSources(slot).map((source) => headOf(source, modules)));
}

/** The modules that render in a page state, root first: its layouts, then what shows at the leaf. */
export function headSources(state: PageState, readStreamed: boolean): HeadSource[] {
  const sources: HeadSource[] = [];
  const add = adder(sources, readStreamed);
  const { segments, pendingAt, params } = state;
  // A partial state renders down to its pending segment's layout; a caught error, no leaf.
  const run = pendingAt === undefined ? segments : segments.slice(0, pendingAt + 1);
  for (const segment of run) add(segment.files.layout, 'layout', segment.layoutData, params);
  if (pendingAt === undefined && state.error === undefined) {
    const last = segments.at(-1);
    if (state.notFound) add(state.notFound, 'page', undefined, params);
    else add(last?.files.page ?? last?.files.default, 'page', last?.pageData, params);
  }
  return sources;
}

/**
 * The modules of an intercepted route, root first: the layouts of its segments, its page, then
 * the intercepted routes its own slots show.
 */
export function slotSources(slot: SlotState): HeadSource[] {
  const sources: HeadSource[] = [];
  const add = adder(sources, false);
  // The list grows while it is read: an intercepted route's own slots come after it.
  const slots = [slot];
  for (let i = 0; i < slots.length; i++) {
    const { segments, params } = slots[i]!;
    for (const segment of segments) {
      add(segment.files.layout, 'layout', segment.layoutData, params);
      for (const inner of Object.values(segment.slots ?? {})) {
        if (inner.intercepted && inner.shows === 'page') slots.push(inner);
      }
    }
    const end = segments.at(-1)!;
    add(end.files.page, 'page', end.pageData, params);
  }
  return sources;
}

/** Adds a module that renders, with its data: none while that data is on its way (or failed). */
function adder(sources: HeadSource[], readStreamed: boolean) {
  return (file: string | undefined, kind: HeadSource['kind'], data: unknown, params: Params): void => {
    if (file === undefined) return;
    if (isTracked(data)) {
      if (!readStreamed || data.status !== 'fulfilled') return;
      data = data.value;
    }
    sources.push({ file, kind, data, params });
  };
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

/**
 * A not-found page: the app's `not-found.tsx`, or the built-in one where nothing shows at the
 * leaf. Page data for a URL only a slot matched shows nothing there either: the browser keeps
 * what the children showed, and that page's head (client/slot-rules.ts).
 */
function isNotFoundPage(state: PageState): boolean {
  if (state.notFound !== undefined) return true;
  const last = state.segments.at(-1);
  return (
    state.pendingAt === undefined &&
    !state.error &&
    !state.slotOnly &&
    !last?.files.page &&
    !last?.files.default
  );
}

/** What a route module's `head` export returns for its segment, checked. */
function headOf({ file, data, params }: HeadSource, modules: ModuleMap): Head {
  const head = modules.get(file)?.head;
  if (head === undefined) return {};
  if (typeof head !== 'function') {
    throw new TypeError(
      `${file}: the "head" export must be a function: export function head({ data, params })`,
    );
  }
  return readHead((head as (args: { data: unknown; params: unknown }) => unknown)({ data, params }), file);
}
