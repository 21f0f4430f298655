/**
 * Which modules' heads a page state shows, with which data and params, and the head they make:
 * a page, a partial page, a caught error, a not-found, a page only a slot matched, and an
 * intercepted route in a slot, whose head is what it changes in the page's.
 */
import { expect, test } from 'vitest';
import type { Head } from '../../shared/head';
import type { RouteModule } from '../../client/render-route';
import {
  headSources,
  interceptedHead,
  pageHead as headOfPage,
  pageHeadTags,
  slotSources,
} from '../../server/render/page-head';
import type { PageState } from '../../shared/page-state';
import { track } from '../../shared/streamed-data';

function page(over: Partial<PageState> = {}): PageState {
  return {
    buildId: 'b',
    url: '/photos/3',
    pattern: '/photos/[id]',
    params: { id: '3' },
    searchParams: {},
    segments: [
      { dir: '', files: { layout: 'layout.tsx', 'not-found': 'not-found.tsx' }, layoutData: 'site' },
      {
        dir: 'photos/[id]',
        files: { page: 'photos/[id]/page.tsx', loading: 'photos/[id]/loading.tsx' },
        pageData: 'photo 3',
      },
    ],
    ...over,
  };
}

/** What each tag of a page's head says, by its key. */
const pageHead = (...args: Parameters<typeof pageHeadTags>) =>
  Object.fromEntries(pageHeadTags(...args).map((tag) => [tag.key, tag.text ?? tag.attributes.content]));

const filesOf = (state: PageState, readStreamed = true) =>
  headSources(state, readStreamed).map((s) => `${s.kind} ${s.file} ${JSON.stringify(s.data)}`);

test('a page: the layouts root first, then the page, each with its own data and the params', () => {
  const sources = headSources(page(), false);
  expect(sources).toEqual([
    { file: 'layout.tsx', kind: 'layout', data: 'site', params: { id: '3' } },
    { file: 'photos/[id]/page.tsx', kind: 'page', data: 'photo 3', params: { id: '3' } },
  ]);
});

test('a partial page (its loading state shows): the layouts down to it, no page', () => {
  expect(filesOf(page({ pendingAt: 1 }))).toEqual(['layout layout.tsx "site"']);
});

test('a caught error: the layouts only; their title is left out, for the error page to name itself', () => {
  const state = page({ error: { digest: 'd' } });
  expect(filesOf(state)).toEqual(['layout layout.tsx "site"']);
  const sources = headSources(state, true);
  expect(pageHead(state, sources, [{ title: 'Site', description: 'A site.' }])).toEqual({
    'name:description': 'A site.',
  });
});

test('a not-found: the layouts without their title, not indexed, then the not-found page’s own head', () => {
  const state = page({ notFound: 'not-found.tsx', segments: [page().segments[0]!] });
  const sources = headSources(state, true);
  expect(filesOf(state)).toEqual(['layout layout.tsx "site"', 'page not-found.tsx undefined']);
  const layout: Head = { title: 'Site', robots: 'index', description: 'A site.' };
  expect(pageHead(state, sources, [layout, {}])).toEqual({
    'name:description': 'A site.',
    'name:robots': 'noindex',
  });
  expect(pageHead(state, sources, [layout, { title: 'Not here', robots: 'noindex, nofollow' }])).toEqual({
    title: 'Not here',
    'name:description': 'A site.',
    'name:robots': 'noindex, nofollow',
  });
  // The built-in not-found page: nothing shows at the leaf, and no file names it.
  const builtIn = page({ segments: [{ dir: '', files: { layout: 'layout.tsx' } }] });
  expect(pageHead(builtIn, headSources(builtIn, true), [layout])).toEqual({
    'name:description': 'A site.',
    'name:robots': 'noindex',
  });
});

test('an intercepted route in a slot comes after the page under it; an ordinary slot adds nothing', () => {
  const feed = page({
    url: '/photos/3',
    mainUrl: '/',
    pattern: '/',
    params: {},
    segments: [
      { dir: '', files: { layout: 'layout.tsx' } },
      {
        dir: '(feed)',
        files: { layout: '(feed)/layout.tsx', page: '(feed)/page.tsx' },
        pageData: 'feed',
        slots: {
          side: {
            segments: [{ dir: '(feed)/@side', files: { page: '(feed)/@side/page.tsx' } }],
            params: {},
            shows: 'page',
          },
          modal: {
            segments: [
              { dir: '(feed)/@modal', files: { layout: '(feed)/@modal/layout.tsx' }, layoutData: 'modal' },
              {
                dir: '(feed)/@modal/(.)photos/[id]',
                files: { page: '(feed)/@modal/(.)photos/[id]/page.tsx' },
                pageData: 'photo 3',
              },
            ],
            params: { id: '3' },
            shows: 'page',
            intercepted: true,
          },
        },
      },
    ],
  });
  // The page's own head leaves the intercepted route out; it comes with its slot.
  expect(filesOf(feed)).toEqual([
    'layout layout.tsx undefined',
    'layout (feed)/layout.tsx undefined',
    'page (feed)/page.tsx "feed"',
  ]);
  const modal = feed.segments[1]!.slots!.modal!;
  expect(slotSources(modal).map((s) => [s.file, s.data, s.params])).toEqual([
    ['(feed)/@modal/layout.tsx', 'modal', { id: '3' }],
    ['(feed)/@modal/(.)photos/[id]/page.tsx', 'photo 3', { id: '3' }],
  ]);
  const modules = modulesWithHeads({
    '(feed)/page.tsx': () => ({ title: 'Feed', description: 'All photos' }),
    '(feed)/@modal/layout.tsx': () => ({ description: '', robots: 'noindex' }),
    '(feed)/@modal/(.)photos/[id]/page.tsx': ({ data }) => ({ title: `Photo: ${String(data)}`, robots: '' }),
  });
  expect(headOfPage(feed, modules).map((tag) => tag.key)).toEqual(['title', 'name:description']);
  // What it sets, and the keys it empties (which the browser removes from the page's).
  expect(interceptedHead(modal, modules)).toEqual([
    { key: 'name:description' },
    { key: 'name:robots' },
    { key: 'title', tag: 'title', attributes: {}, text: 'Photo: photo 3' },
  ]);
});

test('page data for a URL only a slot matched names no not-found: the browser keeps the page shown', () => {
  const state = page({
    slotOnly: true,
    segments: [{ dir: '', files: { layout: 'layout.tsx' }, layoutData: 'site' }],
  });
  const sources = headSources(state, false);
  expect(pageHead(state, sources, [{ title: 'Site', robots: 'index' }])).toEqual({
    title: 'Site',
    'name:robots': 'index',
  });
});

test('a head export that is not a function, or returns the wrong shape, is an error naming its file', () => {
  const state = page();
  expect(() => headOfPage(state, new Map([['layout.tsx', { default: () => null, head: 'x' }]]))).toThrow(
    'layout.tsx: the "head" export must be a function',
  );
  const wrong = modulesWithHeads({ 'photos/[id]/page.tsx': () => ({ title: 3 }) });
  expect(() => headOfPage(state, wrong)).toThrow('photos/[id]/page.tsx: head() title must be a string');
});

/** Route modules whose `head` exports are the given functions. */
function modulesWithHeads(
  heads: Record<string, (args: { data: unknown; params: unknown }) => unknown>,
): Map<string, RouteModule> {
  return new Map(Object.entries(heads).map(([file, head]) => [file, { default: () => null, head }]));
}

test('streamed data: left out until it may be read and is there', async () => {
  const state = page();
  let resolve!: (value: unknown) => void;
  const data = track(new Promise((r) => (resolve = r)));
  state.segments[1]!.pageData = data;
  expect(filesOf(state, true)).toEqual(['layout layout.tsx "site"']);
  resolve('photo 3');
  await data;
  expect(filesOf(state, false)).toEqual(['layout layout.tsx "site"']);
  expect(filesOf(state, true)).toEqual(['layout layout.tsx "site"', 'page photos/[id]/page.tsx "photo 3"']);
  const failed = track(Promise.reject(new Error('no')));
  await failed.catch(() => {});
  state.segments[1]!.pageData = failed;
  expect(filesOf(state, true)).toEqual(['layout layout.tsx "site"']);
});

test('without a head export a page has no tags, and a not-found page is still not indexed', () => {
  const component = { default: () => null };
  const modules = new Map([
    ['layout.tsx', component],
    ['photos/[id]/page.tsx', component],
    ['not-found.tsx', component],
  ]);
  expect(headOfPage(page(), modules)).toEqual([]);
  const notFound = page({ notFound: 'not-found.tsx' });
  expect(headOfPage(notFound, modules).map((tag) => tag.attributes)).toEqual([
    { name: 'robots', content: 'noindex' },
  ]);
});
