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
  const results = await Promise.allSettled(
    match.branch.flatMap((node) => [
      runLoad(runtime, node.files['layout.server'], args),
      runLoad(runtime, node.files['page.server'], args),
    ]),
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
  return { state, components: await loadComponents(runtime, state), status: 200 };
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
