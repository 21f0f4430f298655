/**
 * The router core's test harness: fake history, fetch, modules, clock and storage, each
 * recording what the router asked of it, and page states and answers to feed it.
 */
import {
  createRouter,
  type HistoryEntryState,
  type Modules,
  type RouterEffects,
  type RouterOptions,
  type SavedScroll,
} from '../../client/router';
import { slotRules } from '../../client/slot-rules';
import type { PageDataResponse } from '../../shared/page-data';
import type { PageState } from '../../shared/page-state';
import { deferred, type Deferred } from './deferred';

export const ORIGIN = 'https://app.example';
export const BUILD = 'build-1';

export function pageState(url: string, page: string, layoutData: unknown = { user: 'ada' }): PageState {
  return {
    buildId: BUILD,
    url,
    pattern: url.split('?')[0]!,
    params: {},
    searchParams: {},
    segments: [
      { dir: '', files: { layout: 'layout.tsx' }, layoutData },
      { dir: page, files: { page: `${page}/page.tsx` }, pageData: { page } },
    ],
  };
}

export function jsonResponse(
  body: unknown,
  status = 200,
  type = 'application/json; charset=utf-8',
): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
}

/** What the server would answer for a page, with the root layout data left to the client. */
export function answer(url: string, page: string, extra: Partial<PageDataResponse> = {}): PageDataResponse {
  const state = pageState(url, page);
  const { layoutData: _held, ...root } = state.segments[0]!;
  return {
    ...state,
    segments: [{ ...root, reuseLayoutData: true }, state.segments[1]!],
    status: 200,
    ...extra,
  };
}

export interface Harness {
  effects: RouterEffects;
  location: { href: string };
  history: { op: string; state: HistoryEntryState; href: string }[];
  fetches: { url: string; signal: AbortSignal; reply: Deferred<Response> }[];
  assigned: string[];
  errors: string[];
  stored: { value: string | null };
  clock: { now: number };
  scroll: SavedScroll;
  script: Deferred<unknown> | undefined;
}

export function harness(): Harness {
  let keys = 0;
  const h: Harness = {
    location: { href: `${ORIGIN}/` },
    history: [],
    fetches: [],
    assigned: [],
    errors: [],
    stored: { value: null },
    clock: { now: 1_000_000 },
    scroll: { x: 0, y: 0 },
    script: undefined,
    effects: undefined as unknown as RouterEffects,
  };
  h.effects = {
    // The router's effects as the browser makes them in an app with slots.
    slotRules,
    currentHref: () => h.location.href,
    pushState: (state, href) => {
      h.history.push({ op: 'push', state, href });
      h.location.href = ORIGIN + href;
    },
    replaceState: (state, href) => {
      h.history.push({ op: 'replace', state, href });
      h.location.href = ORIGIN + href;
    },
    go: (delta) => h.history.push({ op: `go ${delta}`, state: { key: '' }, href: '' }),
    fetch: (url, init) => {
      const reply = deferred<Response>();
      h.fetches.push({ url, signal: init.signal, reply });
      init.signal.addEventListener('abort', () => reply.reject(new DOMException('aborted', 'AbortError')));
      return reply.promise;
    },
    loadModules: (files) => Promise.resolve(new Map(files.map((f) => [f, `component of ${f}`])) as Modules),
    preloadRoute: () => (h.script ? h.script.promise : Promise.resolve()),
    assign: (href) => h.assigned.push(href),
    readScroll: () => ({ ...h.scroll }),
    now: () => h.clock.now,
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    storage: { get: () => h.stored.value, set: (value) => (h.stored.value = value) },
    newKey: () => `k${++keys}`,
    reportError: (message) => h.errors.push(message),
  };
  return h;
}

export function start(
  h: Harness,
  state = pageState('/', 'feed'),
  options: Partial<Pick<RouterOptions, 'concurrency' | 'routeScriptTimeoutMs'>> = {},
) {
  return createRouter({
    initial: { state, modules: new Map(), history: null },
    effects: h.effects,
    ...options,
  });
}

/** Lets promise chains (the prefetch queue's hops, awaited fetches) run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

export function prefetchAnswer(url: string, page: string, pendingAt?: number): PageDataResponse {
  const state = pageState(url, page);
  if (pendingAt === undefined) return { ...state, status: 200 };
  const segments = state.segments.map((s, i) =>
    i < pendingAt ? s : { dir: s.dir, files: { ...s.files, loading: `${s.dir}/loading.tsx` } },
  );
  return { ...state, segments, pendingAt, status: 200 };
}
