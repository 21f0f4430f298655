/**
 * What a soft navigation does with the slots of the page it leaves: a slot with no match keeps
 * its page while its segment stays; an `unmatched` slot (no default.tsx) must keep one.
 */
import { describe, expect, test } from 'vitest';
import { mergeState } from '../../client/page-data-client';
import { keepUnmatchedSlots, slotRules } from '../../client/slot-rules';
import type { PageState, SlotState } from '../../shared/page-state';

const page = (file: string, extra: Partial<SlotState> = {}): SlotState => ({
  segments: [{ dir: file.replace(/\/page\.tsx$/, ''), files: { page: file } }],
  params: {},
  shows: 'page',
  ...extra,
});
const DEFAULT: SlotState = {
  segments: [{ dir: 'ptb/@a', files: { default: 'ptb/@a/default.tsx' } }],
  params: {},
  shows: 'default',
};
const UNMATCHED: SlotState = { segments: [], params: {}, shows: 'unmatched' };

function state(url: string, slots: Record<string, SlotState>, dir = 'ptb', params = {}): PageState {
  return {
    buildId: 'b',
    url,
    pattern: null,
    params,
    searchParams: {},
    segments: [
      { dir: '', files: {} },
      { dir, files: {}, slots },
    ],
  };
}

const AUDIENCE = page('ptb/@audience/page.tsx');
const INTERCEPTED = page('ptb/@audience/(.)x/page.tsx', { intercepted: true });

describe('keepUnmatchedSlots', () => {
  test.each([
    // [name, the slot shown, the slot the target sends, push?, what shows]
    ['unmatched keeps the page shown', AUDIENCE, UNMATCHED, true, AUDIENCE],
    ['unmatched keeps it on back, forward and refresh too', AUDIENCE, UNMATCHED, false, AUDIENCE],
    ['a default keeps the page shown on a push', AUDIENCE, DEFAULT, true, AUDIENCE],
    ['a default shows on back, forward and refresh', AUDIENCE, DEFAULT, false, DEFAULT],
    ['an intercepted page goes back to the default', INTERCEPTED, DEFAULT, true, DEFAULT],
    [
      'a matched slot shows its new page',
      AUDIENCE,
      page('ptb/@audience/b/page.tsx'),
      true,
      page('ptb/@audience/b/page.tsx'),
    ],
  ])('%s', (_name, shown, sent, push, shows) => {
    const next = keepUnmatchedSlots(
      state('/ptb', { audience: shown }),
      state('/ptb/x', { audience: sent }),
      push,
    );
    expect(next.segments[1]!.slots!.audience).toEqual(shows);
  });

  test.each([
    ['the slot showed an intercepted route', state('/ptb', { audience: INTERCEPTED }), 'ptb'],
    ['the segment is another one', state('/other', { audience: AUDIENCE }, 'other'), 'ptb'],
    [
      'the segment’s params changed',
      state('/ptb', { audience: AUDIENCE }, 'ptb/[id]', { id: '1' }),
      'ptb/[id]',
    ],
  ])('unmatched with nothing to keep throws (the router then loads the document): %s', (_name, on, dir) => {
    const next = state('/ptb/x', { audience: UNMATCHED }, dir, { id: '2' });
    expect(() => keepUnmatchedSlots(on, next)).toThrow(
      `the slot @audience of "${dir}" has nothing to show at /ptb/x`,
    );
  });

  test('page data merged over the page held resolves its unmatched slots; a prefetch keeps them', () => {
    const data = { ...state('/ptb/x', { audience: UNMATCHED }), status: 200 as const };
    const held = state('/ptb', { audience: AUDIENCE });
    expect(mergeState(held, data, { slotRules }).segments[1]!.slots!.audience).toEqual(AUDIENCE);
    expect(mergeState(held, data, { showOver: false, slotRules }).segments[1]!.slots!.audience).toEqual(
      UNMATCHED,
    );
    expect(mergeState(undefined, data, { slotRules }).segments[1]!.slots!.audience).toEqual(UNMATCHED);
  });

  test("without the slots' rules (an app with no slot folder) a state is taken as it came", () => {
    const data = { ...state('/ptb/x', { audience: UNMATCHED }), status: 200 as const };
    expect(mergeState(state('/ptb', { audience: AUDIENCE }), data).segments[1]!.slots!.audience).toEqual(
      UNMATCHED,
    );
  });

  describe('the children of a layout whose URL only a slot matched', () => {
    const home: PageState = {
      ...state('/ptb', { views: page('ptb/@views/page.tsx') }),
      segments: [
        { dir: '', files: {} },
        { dir: 'ptb', files: { layout: 'ptb/layout.tsx', page: 'ptb/page.tsx' }, pageData: 1, slots: {} },
      ],
    };
    const deeper: PageState = {
      ...home,
      url: '/ptb/x',
      segments: [
        { dir: '', files: {} },
        { dir: 'ptb', files: { layout: 'ptb/layout.tsx' } },
        { dir: 'ptb/x', files: { page: 'ptb/x/page.tsx' } },
      ],
    };
    const slotOnly = (files: object): PageState => ({
      ...state('/ptb/view-duration', {}),
      slotOnly: true,
      segments: [
        { dir: '', files: {} },
        {
          dir: 'ptb',
          files: { layout: 'ptb/layout.tsx', ...files },
          slots: { views: page('ptb/@views/v/page.tsx') },
        },
      ],
    });

    test('keep the page they showed, with its data and head, beside the slot’s new page', () => {
      const tag = (text: string) => ({ key: 'title', tag: 'title' as const, attributes: {}, text });
      const next = keepUnmatchedSlots(
        { ...home, head: [tag('Home')] },
        { ...slotOnly({ default: 'ptb/default.tsx' }), head: [tag('Layout')] },
      );
      expect(next.slotOnly).toBeUndefined();
      expect(next.head).toEqual([tag('Home')]);
      expect(next.segments[1]).toMatchObject({
        files: { layout: 'ptb/layout.tsx', page: 'ptb/page.tsx' },
        pageData: 1,
        slots: { views: page('ptb/@views/v/page.tsx') },
      });
    });

    test('keep the segments they showed below the layout', () => {
      const next = keepUnmatchedSlots(deeper, slotOnly({}));
      expect(next.segments.map((s) => s.dir)).toEqual(['', 'ptb', 'ptb/x']);
      expect(next.segments[2]!.files).toEqual({ page: 'ptb/x/page.tsx' });
    });

    test('from elsewhere show the default; with none there is nothing to show', () => {
      const elsewhere = state('/other', {}, 'other');
      expect(
        keepUnmatchedSlots(elsewhere, slotOnly({ default: 'ptb/default.tsx' })).segments[1]!.files,
      ).toEqual({
        layout: 'ptb/layout.tsx',
        default: 'ptb/default.tsx',
      });
      expect(() => keepUnmatchedSlots(elsewhere, slotOnly({}))).toThrow(
        'the children of "ptb" have nothing to show at /ptb/view-duration',
      );
    });

    test('on back, forward and refresh the default shows where there is one', () => {
      const next = keepUnmatchedSlots(home, slotOnly({ default: 'ptb/default.tsx' }), false);
      expect(next.segments[1]!.files.default).toBe('ptb/default.tsx');
    });
  });

  test('an unmatched slot inside a slot is left to a document load', () => {
    const inner: SlotState = {
      ...page('ptb/@views/page.tsx'),
      segments: [{ dir: 'ptb/@views', files: { page: 'ptb/@views/page.tsx' }, slots: { deep: UNMATCHED } }],
    };
    expect(() => keepUnmatchedSlots(state('/ptb', {}), state('/ptb/x', { views: inner }))).toThrow(
      'a slot inside a slot has nothing to show at /ptb/x',
    );
  });
});
