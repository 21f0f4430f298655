/**
 * The slots' rules for a soft navigation, in a chunk of their own: the browser's router loads
 * them only in an app with a `@slot` folder (its route module says so), since a page without
 * slots has none to keep and is never shown intercepted. `pageOver` and `mergeState`
 * (page-data-client.ts) apply them through the router's effects (`effects.slotRules`).
 */
import type { InterceptedAnswer } from '../shared/page-data.js';
import { segmentKey, type PageState, type SegmentState, type SlotState } from '../shared/page-state.js';
import type { SlotRules } from './router-types.js';

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
 * The children of a layout whose URL only a slot matched (`slotOnly`) are kept the same way,
 * with the head of the page on screen.
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
      // The page they keep is the one on screen, and so is its head: the slots add none to it.
      const { head: _server, ...kept } = rest;
      const head = on.streamedHead ?? on.head;
      return assertAllShown(head ? { ...kept, segments, head } : { ...kept, segments });
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

export const slotRules: SlotRules = { keepUnmatched: keepUnmatchedSlots, splice: spliceIntercepted };
