/**
 * A test's router: the real router core (`client/router.ts`, the one the browser runs) with
 * effects for a test — a memory history, an in-process fetch that records every request, route
 * modules imported by the test runner, and the app's test clock — and calls that return what the
 * browser's do, plus `idle()`, `snapshot()` and `html()` to look at the result.
 */
import { Writable } from 'node:stream';
import { createElement } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { callAction } from '../../client/call-server.js';
import { devtoolsSnapshot } from '../../client/devtools/snapshot.js';
import { toLocal } from '../../client/lazy-router.js';
import { mergeState, readPageData } from '../../client/page-data-client.js';
import { routeEffects } from '../../client/route-effects.js';
import { interceptionOf } from '../../client/route-interception.js';
import { RouterRoot } from '../../client/router-root.js';
import { slotRules } from '../../client/slot-rules.js';
import { createRouter } from '../../client/router.js';
import type {
  DevtoolsSnapshot,
  HistoryEntryState,
  Modules,
  NavigationOutcome,
  PrefetchOutcome,
  PrefetchTrigger,
  Router,
  RouterEffects,
} from '../../client/router-types.js';
import { isDocumentAnswer, isRedirectAnswer, PAGE_DATA_TYPE, pageDataUrl } from '../../shared/page-data.js';
import { filesOf } from '../../shared/page-state.js';
import { checkRedirectTarget } from '../../shared/redirect-target.js';
import { MAX_REDIRECTS } from '../../shared/constants.js';
import type { RouterConfig } from '../../shared/router-config.js';
import { assembleRouteTree } from '../../shared/route-tree.js';
import { routeTable } from '../../shared/build-route-table.js';
import { TEST_ORIGIN, type InProcessFetch } from './in-process-fetch.js';
import type { TestClock } from './test-clock.js';

/**
 * Why a request was made: a navigation's page data (`page-data`, the first load's too), a
 * prefetch's, a server action's call (`action`), or anything else.
 */
export type RequestKind = 'page-data' | 'prefetch' | 'action' | 'other';

export interface RecordedRequest {
  method: string;
  /** The path and search the app sees, without the framework's own parameters. */
  url: string;
  kind: RequestKind;
  /** For page data: how much of the page was asked for (`auto`, `full`, `rest`), if not all. */
  mode?: string;
  /** For an action's call: the action's export name. */
  action?: string;
}

export interface PrefetchOptions {
  /** `auto` (what a `<Link>` asks for): down to the first loading state; `full`: all of it. */
  kind?: 'auto' | 'full';
  /** Why: `viewport` (a link in view, the default), `intent` (a hover) or `api`. */
  trigger?: PrefetchTrigger;
}

export interface ReportedError {
  message: string;
  error: unknown;
}

export interface TestRouter {
  /** The URL on screen: path, search and hash. */
  readonly url: string;
  /** What the router reported as it would to the console: a failed navigation, a listener that threw. */
  readonly errors: readonly ReportedError[];
  push(href: string, options?: { scroll?: boolean }): Promise<NavigationOutcome>;
  replace(href: string, options?: { scroll?: boolean }): Promise<NavigationOutcome>;
  /** Goes back one history entry; rejects when there is none. */
  back(): Promise<NavigationOutcome>;
  /** Goes forward one history entry; rejects when there is none. */
  forward(): Promise<NavigationOutcome>;
  refresh(): Promise<NavigationOutcome>;
  prefetch(href: string, options?: PrefetchOptions): Promise<PrefetchOutcome>;
  /**
   * Calls a server action as a form or a button would: a POST to the server, then what its
   * answer says (revalidation, redirect). Resolves with the action's value.
   */
  action<A extends unknown[], R>(action: (...args: A) => R, ...args: A): Promise<Awaited<R>>;
  /** Resolves once no navigation, prefetch, action or request is in flight. */
  idle(): Promise<void>;
  /** The devtools snapshot: cache entries with their status and data, the queue, the budget. */
  snapshot(): DevtoolsSnapshot;
  /** The page on screen rendered to HTML, its Suspense boundaries resolved. */
  html(): Promise<string>;
}

export interface TestRouterContext {
  fetch: InProcessFetch;
  clock: TestClock;
  requests: RecordedRequest[];
  componentFiles: readonly string[];
  importModule(file: string): Promise<unknown>;
  config: RouterConfig;
  actionIdOf(action: unknown): string | undefined;
}

const FRAMEWORK_PARAMS = /^_sy[pw]?$/;
/** The real `setImmediate`, kept before a test may install fake timers over it. */
const nextTurn = globalThis.setImmediate;

export async function createTestRouter(context: TestRouterContext, url: string): Promise<TestRouter> {
  const { clock, requests, config } = context;
  const inFlight = new Set<Promise<unknown>>();
  const errors: ReportedError[] = [];
  const track = <T>(promise: Promise<T>): Promise<T> => {
    inFlight.add(promise);
    const done = () => inFlight.delete(promise);
    promise.then(done, done);
    return promise;
  };
  // Effects and the router refer to each other: the router is made from the effects.
  const made: { router?: Router } = {};

  const loadModules = (files: readonly string[]): Promise<Modules> =>
    track(
      Promise.all(files.map((file) => context.importModule(file))).then(
        (loaded) => new Map(files.map((file, i) => [file, loaded[i]])),
      ),
    );

  /** Every request the app's code makes, recorded; the app's fetch sends and keeps the cookies. */
  const fetch = (href: string, init: RequestInit = {}, kind?: RequestKind): Promise<Response> => {
    const target = new URL(href, TEST_ORIGIN);
    const isPageData = target.searchParams.has('_sy');
    const mode = target.searchParams.get('_syp') ?? undefined;
    const action = kind === 'action' ? decodeURIComponent(target.pathname).split('#').pop() : undefined;
    for (const name of [...target.searchParams.keys()]) {
      if (FRAMEWORK_PARAMS.test(name)) target.searchParams.delete(name);
    }
    const path = target.pathname + target.search;
    const method = init.method ?? 'GET';
    requests.push({
      method,
      url: path,
      kind: kind ?? (isPageData ? (isPrefetching(path) ? 'prefetch' : 'page-data') : 'other'),
      ...(mode ? { mode } : {}),
      ...(action ? { action } : {}),
    });
    return track(context.fetch(href, init));
  };
  // A prefetch's request goes out while its key is running in the queue; nothing else's does.
  const isPrefetching = (path: string) =>
    (made.router?.devtools().queue.running() ?? []).some((key) => key === path || key.startsWith(`${path} `));

  const history = { entries: [] as { state: HistoryEntryState; href: string }[], index: -1 };
  const go = (delta: number): Promise<NavigationOutcome> => {
    const to = history.index + delta;
    const entry = history.entries[to];
    if (!entry) return Promise.reject(new Error(`no history entry ${delta} from ${snapshotHref()}`));
    history.index = to;
    return track(made.router!.onPopState(entry.state));
  };
  const snapshotHref = () => history.entries[history.index]?.href ?? url;

  let keys = 0;
  const effects: RouterEffects = {
    currentHref: () => TEST_ORIGIN + snapshotHref(),
    pushState(state, href) {
      history.entries.splice(history.index + 1, Infinity, { state, href });
      history.index++;
    },
    replaceState(state, href) {
      history.entries[Math.max(history.index, 0)] = { state, href };
      history.index = Math.max(history.index, 0);
    },
    go: (delta) => void go(delta).catch(() => {}),
    fetch: (href, init) => fetch(href, init),
    loadModules,
    ...routeEffects(routeTable(assembleRouteTree([...context.componentFiles])), loadModules),
    interceptionOf: interceptionOf(context.componentFiles),
    slotRules,
    // A full page load leaves the app: the test sees it as the navigation's `hard` outcome.
    assign: () => {},
    readScroll: () => ({ x: 0, y: 0 }),
    now: clock.now,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    newKey: () => `k${++keys}`,
    reportError: (message, error) => void errors.push({ message, error }),
  };

  const first = await firstPage(fetch, loadModules, url);
  history.entries.push({ state: { key: 'k0' }, href: first.url });
  history.index = 0;
  const router = createRouter({
    initial: { state: first.state, modules: first.modules, history: null },
    effects,
    policy: { freshMs: config.prefetch.freshMs, staleMs: config.prefetch.staleMs },
    concurrency: config.prefetch.concurrency,
    routeScriptTimeoutMs: config.routeScriptTimeoutMs,
  });
  made.router = router;

  return {
    get url() {
      return router.getSnapshot().href;
    },
    errors,
    push: (href, options) => track(router.navigate(href, { ...options, replace: false })),
    replace: (href, options) => track(router.navigate(href, { ...options, replace: true })),
    back: () => go(-1),
    forward: () => go(1),
    refresh: () => track(router.refresh()),
    prefetch: (href, { kind = 'auto', trigger = 'viewport' } = {}) =>
      track(router.prefetch(href, kind, trigger)),
    action(action, ...args) {
      const id = context.actionIdOf(action);
      if (!id) {
        return Promise.reject(
          new TypeError(
            'router.action() takes a server action of this app: a function exported by a "use server" module that its app directory imports',
          ),
        );
      }
      const call = callAction(id, args, { fetch: (href, init) => fetch(href, init, 'action'), router });
      return track(call) as Promise<never>;
    },
    async idle() {
      // Two quiet turns in a row: work a settled promise starts shows up in the first.
      for (let quiet = 0; quiet < 2;) {
        await new Promise((resolve) => nextTurn(resolve));
        const { queue } = router.devtools();
        const busy =
          inFlight.size > 0 ||
          router.getSnapshot().pending ||
          queue.running().length > 0 ||
          queue.waiting().length > 0;
        quiet = busy ? 0 : quiet + 1;
      }
    },
    snapshot: () => devtoolsSnapshot(router),
    html: () => renderToHtml(router),
  };
}

/** The first page: its data, asked for whole, following redirects as a document load would. */
async function firstPage(
  fetch: (href: string, init?: RequestInit) => Promise<Response>,
  loadModules: (files: readonly string[]) => Promise<Modules>,
  url: string,
) {
  let target = new URL(url, TEST_ORIGIN);
  for (let redirects = 0; ; redirects++) {
    if (target.origin !== TEST_ORIGIN)
      throw new TypeError(`router({ url }) takes a path on this app, got ${url}`);
    const response = await fetch(pageDataUrl(target.pathname + target.search, ''), {
      headers: { accept: PAGE_DATA_TYPE },
    });
    if (!response.headers.get('content-type')?.startsWith(PAGE_DATA_TYPE)) {
      // An error page is HTML: its words say what went wrong.
      const text = (await response.text()).replace(/<style[\s\S]*?<\/style>|<[^>]*>/g, ' ');
      const words = text.replace(/\s+/g, ' ').trim().slice(0, 300);
      throw new Error(
        `the first load of ${target.pathname}${target.search} answered ${response.status}: ${words}`,
      );
    }
    const data = await readPageData(response);
    if (isDocumentAnswer(data))
      throw new Error(`${target.pathname} is answered by a route handler, not a page`);
    if (isRedirectAnswer(data)) {
      const path = checkRedirectTarget(data.redirect.location);
      if (path === null || redirects >= MAX_REDIRECTS) {
        throw new Error(
          `${target.pathname} redirects to ${data.redirect.location}, which a test router cannot follow`,
        );
      }
      target = new URL(path, TEST_ORIGIN);
      continue;
    }
    if ('intercept' in data) throw new Error(`${target.pathname} came back intercepted on a first load`);
    const state = mergeState(undefined, data);
    return { state, modules: await loadModules(filesOf(state)), url: toLocal(target.href) };
  }
}

/** Renders the router's page as the browser's root does, once every Suspense boundary is done. */
function renderToHtml(router: Router): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString('utf8');
        done();
      },
      final(done) {
        resolve(html);
        done();
      },
    });
    const stream = renderToPipeableStream(createElement(RouterRoot, { router, assets: null }), {
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
    });
  });
}
