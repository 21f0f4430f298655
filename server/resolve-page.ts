/**
 * From a match to a page state: runs the `load` functions of the branch in parallel and loads
 * its component modules. A `notFound()` from any loader becomes a not-found state at the
 * nearest `not-found.tsx` at or above the segment that called it.
 */
import type { RouteMatch } from '../shared/match-route';
import type { PageState, SearchParams, SegmentState } from '../shared/page-state';
import { COMPONENT_FILES, type RouteNode } from '../shared/route-tree';
import { isNotFound } from '../shared/router-signals';
import type { AnyComponent } from '../client/render-route';
import type { RouteRuntime } from './route-runtime';

export interface ResolvedPage {
  state: PageState;
  components: Map<string, AnyComponent>;
  status: 200 | 404;
}

export interface PageRequest {
  /** Pathname and search, as the page will know itself. */
  url: string;
  searchParams: SearchParams;
  /** Made only if a loader asks for it. */
  request: () => Request;
  buildId: string;
  /** An `auto` prefetch: load nothing at or below the first `loading.tsx` (SPEC C2). */
  cutAtLoading?: boolean;
}

function segmentOf(node: RouteNode, dir: string, isLast: boolean): SegmentState {
  const files: SegmentState['files'] = {};
  for (const role of COMPONENT_FILES) {
    const file = node.files[role];
    if (file && (role !== 'page' || isLast)) files[role] = file;
  }
  return { dir, files };
}

async function runLoad(runtime: RouteRuntime, file: string | undefined, args: object): Promise<unknown> {
  if (!file) return undefined;
  const module = await runtime.load(file);
  if (typeof module.load !== 'function') {
    throw new TypeError(`${file} must export a function named "load"`);
  }
  return (module.load as (args: object) => unknown)(args);
}

export async function resolvePage(
  runtime: RouteRuntime,
  match: RouteMatch,
  req: PageRequest,
): Promise<ResolvedPage> {
  let dir = '';
  const segments = match.branch.map((node, i) => {
    dir = i === 0 ? '' : dir ? `${dir}/${node.name}` : node.name;
    return segmentOf(node, dir, i === match.branch.length - 1);
  });
  let request: Request | undefined;
  const args = {
    params: match.params,
    searchParams: req.searchParams,
    get request() {
      return (request ??= req.request());
    },
  };
  // The segment whose loading state an auto prefetch stops at: its layout is above the loading
  // state and loads; what its Suspense boundary wraps does not.
  const cut = req.cutAtLoading ? segments.findIndex((s) => s.files.loading) : -1;
  const skip = (i: number, role: 'layout.server' | 'page.server') =>
    cut >= 0 && (i > cut || role === 'page.server');
  const results = await Promise.allSettled(
    match.branch.flatMap((node, i) =>
      (['layout.server', 'page.server'] as const).map((role) =>
        skip(i, role) ? undefined : runLoad(runtime, node.files[role], args),
      ),
    ),
  );
  const failedAt = results.findIndex((r) => r.status === 'rejected');
  if (failedAt >= 0) {
    const reason = (results[failedAt] as PromiseRejectedResult).reason;
    if (!isNotFound(reason)) throw reason;
    return resolveNotFound(runtime, segments.slice(0, Math.floor(failedAt / 2) + 1), match, req);
  }
  segments.forEach((segment, i) => {
    const layoutData = (results[i * 2] as PromiseFulfilledResult<unknown>).value;
    const pageData = (results[i * 2 + 1] as PromiseFulfilledResult<unknown>).value;
    if (layoutData !== undefined) segment.layoutData = layoutData;
    if (pageData !== undefined) segment.pageData = pageData;
  });
  const state: PageState = {
    buildId: req.buildId,
    url: req.url,
    pattern: match.pattern,
    params: match.params,
    searchParams: req.searchParams,
    segments,
  };
  if (cut >= 0) state.pendingAt = cut;
  const cachePolicy = await declaredCachePolicy(runtime, match.branch.at(-1)?.files['page.server']);
  if (cachePolicy) state.cachePolicy = cachePolicy;
  return { state, components: await loadComponents(runtime, state), status: 200 };
}

/**
 * The prefetch windows a page declares for itself (SPEC C8):
 * `export const cachePolicy = { freshMs: 5_000, staleMs: 60_000 }` in its `page.server`.
 */
async function declaredCachePolicy(runtime: RouteRuntime, file: string | undefined) {
  if (!file) return undefined;
  const declared = (await runtime.load(file)).cachePolicy as
    { freshMs?: unknown; staleMs?: unknown } | undefined;
  if (declared === undefined) return undefined;
  const { freshMs, staleMs } = declared;
  if (
    typeof freshMs !== 'number' ||
    typeof staleMs !== 'number' ||
    !(freshMs >= 0) ||
    !(staleMs >= freshMs)
  ) {
    throw new TypeError(`${file}: cachePolicy must be { freshMs, staleMs } with 0 <= freshMs <= staleMs`);
  }
  return { freshMs, staleMs };
}

/**
 * The not-found page: the branch is cut at the nearest segment with a `not-found.tsx`, whose
 * layouts still wrap it. With none on the branch, the root's (or the built-in one) is used.
 */
export async function resolveNotFound(
  runtime: RouteRuntime,
  segments: SegmentState[],
  match: RouteMatch | undefined,
  req: PageRequest,
): Promise<ResolvedPage> {
  let at = segments.length - 1;
  while (at > 0 && !segments[at]!.files['not-found']) at--;
  const kept = segments.slice(0, at + 1).map((s) => {
    const { page: _page, ...files } = s.files;
    return { dir: s.dir, files };
  });
  // Layout data is loaded again for a cut branch: a not-found is rare and must not leak page data.
  const state: PageState = {
    buildId: req.buildId,
    url: req.url,
    pattern: match?.pattern ?? null,
    params: match?.params ?? {},
    searchParams: req.searchParams,
    segments: kept,
  };
  const notFoundFile = kept[at]?.files['not-found'];
  if (notFoundFile) state.notFound = notFoundFile;
  await loadLayoutData(runtime, state, match, req);
  return { state, components: await loadComponents(runtime, state), status: 404 };
}

async function loadLayoutData(
  runtime: RouteRuntime,
  state: PageState,
  match: RouteMatch | undefined,
  req: PageRequest,
) {
  if (!match) return;
  const args = { params: match.params, searchParams: req.searchParams, request: req.request() };
  await Promise.all(
    state.segments.map(async (segment, i) => {
      const file = match.branch[i]?.files['layout.server'];
      const data = await runLoad(runtime, file, args).catch((error: unknown) => {
        // A layout that throws notFound() for its own URL has nothing better to show.
        if (isNotFound(error)) return undefined;
        throw error;
      });
      if (data !== undefined) segment.layoutData = data;
    }),
  );
}

export async function loadComponents(
  runtime: RouteRuntime,
  state: PageState,
): Promise<Map<string, AnyComponent>> {
  const files = state.segments.flatMap((s) => Object.values(s.files));
  if (state.notFound) files.push(state.notFound);
  const modules = await Promise.all(files.map((file) => runtime.load(file)));
  const components = new Map<string, AnyComponent>();
  files.forEach((file, i) => {
    const component = modules[i]!.default;
    if (typeof component !== 'function') {
      throw new TypeError(`${file} must export a React component as its default export`);
    }
    components.set(file, component as AnyComponent);
  });
  return components;
}
