/**
 * From a match to a page state: runs the `load` functions of the branch in parallel and loads
 * its component modules. A `notFound()` from any loader becomes a not-found state at the
 * nearest `not-found.tsx` at or above the segment that called it; an error, a state cut at the
 * nearest `error.tsx` that wraps the loader's segment (or a throw when there is none).
 */
import type { InterceptMatch } from '../../shared/intercept.js';
import type { RouteMatch } from '../../shared/match-route.js';
import {
  filesOf,
  segmentFilesOf,
  type PageState,
  type SearchParams,
  type SegmentState,
  type SlotState,
} from '../../shared/page-state.js';
import { dirOf } from '../../shared/route-tree.js';
import { isStandardSchema, validateSearch } from '../../shared/standard-schema.js';
import { HttpError } from '../http/http-error.js';
import { isNotFound, isRedirect } from '../../shared/router-signals.js';
import { streamedId, track } from '../../shared/streamed-data.js';
import type { RouteModule } from '../../client/render-route.js';
import { interceptedHead, pageHead } from './page-head.js';
import { planPage, planSlot, type LoadJob } from './plan-branch.js';
import type { RouteRuntime } from './route-runtime.js';
import type { RequestTracer } from '../sentry/request-tracer.js';

export interface ResolvedPage {
  state: PageState;
  modules: Map<string, RouteModule>;
  /** 500: a loader failed and an `error.tsx` caught it (`state.error`). */
  status: 200 | 404 | 500;
}

/**
 * What a page's loaders are run with, for one request.
 *
 * A class, made with `new`, and not an object literal, because it lives as long as its request.
 * V8 counts, per literal in the code, how many of the objects made there outlive a
 * young-generation collection; once most do, it allocates that literal's objects straight in the
 * old generation. There, dead since its request ended, such an object still keeps everything
 * young it points to (here, through the callbacks, the whole request and its response) alive
 * through every young collection until the next full one, which then has it all to sweep. V8
 * never allocates an object made by `new` in the old generation. docs/performance.md ("Why: V8's
 * pretenuring") has the measures.
 */
export class PageRequest {
  /** Pathname and search, as the page will know itself. */
  readonly url: string;
  readonly searchParams: SearchParams;
  /** Made only if a loader asks for it, then the same one for every loader. */
  readonly request: () => Request;
  readonly buildId: string;
  /** An `auto` prefetch: load nothing at or below the first `loading.tsx`. */
  readonly cutAtLoading?: boolean | undefined;
  /** A document: what is at or below the first `loading.tsx` streams after the shell. */
  readonly streamBelowLoading?: boolean | undefined;
  /** Logs and reports a loader's error that an `error.tsx` caught; answers its digest. */
  readonly onLoadError?: ((error: unknown) => string) | undefined;
  /**
   * Page data: a slot with neither a match nor a `default.tsx` is sent `unmatched`, for the
   * client to keep what it shows; in a document it makes the page a not-found.
   */
  readonly keepsUnmatchedSlots?: boolean | undefined;
  /** The output of the page's `search` schema, set once it validated. */
  readonly search?: unknown;
  /** Each `load` runs in a span of its own, named by its file. */
  readonly tracer?: RequestTracer | undefined;

  constructor(fields: PageRequest) {
    this.url = fields.url;
    this.searchParams = fields.searchParams;
    this.request = fields.request;
    this.buildId = fields.buildId;
    this.cutAtLoading = fields.cutAtLoading;
    this.streamBelowLoading = fields.streamBelowLoading;
    this.onLoadError = fields.onLoadError;
    this.keepsUnmatchedSlots = fields.keepsUnmatchedSlots;
    this.search = fields.search;
    this.tracer = fields.tracer;
  }
}

/**
 * A loader's result as it came: its value, or its promise. What it throws is a rejected promise,
 * as an `async` loader's throw would be.
 */
function runLoad(
  runtime: RouteRuntime,
  file: string | undefined,
  args: object,
  tracer: RequestTracer | undefined,
): unknown {
  if (!file) return undefined;
  // A loaded module's `load` is called at once, its result handed on as it is: no promise of our
  // own around the app's (see `resolvePage` on why each one counts).
  const run = () => {
    const module = runtime.ready(file);
    if (!module) return runtime.load(file).then((loaded) => callLoad(file, loaded, args));
    try {
      return callLoad(file, module, args);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return tracer ? tracer.span('load', file, run) : run();
}

function callLoad(file: string, module: Record<string, unknown>, args: object): unknown {
  if (typeof module.load !== 'function') {
    throw new TypeError(`${file} must export a function named "load"`);
  }
  return (module.load as (args: object) => unknown)(args);
}

/**
 * What a `load` receives: `params`, `searchParams`, `search` and `request`, each an own
 * enumerable property (a spread copy keeps them all). `request` is a getter, so the web
 * `Request` is made only if a loader reads it, and then once for all the request's loaders.
 *
 * Not an object literal with `get request() {…}`: such a literal gets a fresh getter each time,
 * which V8 stores in an accessor pair allocated straight in the old generation, and that dead
 * old object then keeps the getter's closure (the whole request, its response included) alive
 * through every young-generation collection until the next full one. Every finished response
 * was promoted that way. The one getter shared by all instances allocates nothing per request.
 */
export class LoaderArgs {
  static readonly #request: PropertyDescriptor = {
    get(this: LoaderArgs) {
      return this.#page.request();
    },
    enumerable: true,
    configurable: true,
  };
  readonly #page: PageRequest;
  readonly params: object;
  readonly searchParams: SearchParams;
  readonly search: unknown;
  declare readonly request: Request;

  constructor(page: PageRequest, params: object) {
    this.#page = page;
    this.params = params;
    this.searchParams = page.searchParams;
    this.search = page.search;
    Object.defineProperty(this, 'request', LoaderArgs.#request);
  }
}

/** Starts the loader of a job; all the jobs of one request share one web `Request`. */
function startJob(runtime: RouteRuntime, job: LoadJob, req: PageRequest): unknown {
  return runLoad(runtime, job.file, new LoaderArgs(req, job.params), req.tracer);
}

interface Failure {
  job: LoadJob;
  reason: unknown;
}

/**
 * Runs the loaders of a plan in parallel and stores the data of those that succeeded. Real
 * errors are thrown first (as `LoadFailed`), then a redirect; a not-found cuts the branch
 * nearest the root.
 */
async function runJobs(runtime: RouteRuntime, jobs: readonly LoadJob[], req: PageRequest): Promise<void> {
  const results = await Promise.allSettled(jobs.map((job) => startJob(runtime, job, req)));
  results.forEach((r, i) => {
    if (r.status === 'fulfilled' && r.value !== undefined) jobs[i]!.segment[jobs[i]!.kind] = r.value;
  });
  // A not-found nearest the root decides where the not-found page cuts the branch.
  const failures: Failure[] = results.flatMap((r, i) =>
    r.status === 'rejected' ? [{ job: jobs[i]!, reason: r.reason as unknown }] : [],
  );
  const notFound = failures
    .filter((f) => isNotFound(f.reason))
    .sort((a, b) => a.job.mainIndex - b.job.mainIndex)[0];
  const errors = failures.filter((f) => !isNotFound(f.reason) && !isRedirect(f.reason));
  if (errors.length > 0) throw new LoadFailed(errors);
  const redirect = failures.find((f) => isRedirect(f.reason));
  if (redirect) throw redirect.reason;
  if (notFound) throw new CutAt(notFound.job.mainIndex);
}

/** Thrown inside this module: a `notFound()` came from the loaders of main segment `index`. */
class CutAt {
  constructor(readonly index: number) {}
}

/** Thrown inside this module: loaders failed with real errors. */
class LoadFailed {
  constructor(readonly failures: readonly Failure[]) {}
}

/**
 * The page an `error.tsx` shows for failed loaders, cut at the outermost boundary any failure
 * needs. As the tree nests, a segment's boundary wraps its page but not its own layout, so a
 * page's `load` is caught at its own segment and a layout's (or a slot's) one segment up.
 */
function caughtPage(
  state: PageState,
  { failures }: LoadFailed,
  onLoadError: ((error: unknown) => string) | undefined,
): PageState {
  const { segments } = state;
  const boundaryOf = ({ job }: Failure) => {
    const ownPage = job.kind === 'pageData' && job.segment === segments[job.mainIndex];
    let at = ownPage ? job.mainIndex : job.mainIndex - 1;
    while (at >= 0 && !segments[at]!.files.error) at--;
    return at;
  };
  const first = failures.reduce((a, b) => (boundaryOf(b) < boundaryOf(a) ? b : a));
  const at = boundaryOf(first);
  if (at < 0 || !onLoadError) throw first.reason;
  const digests = failures.map((f) => onLoadError(f.reason));
  const kept = segments.slice(0, at + 1);
  const { page: _page, ...files } = kept[at]!.files;
  kept[at] = { ...kept[at]!, files };
  return { ...state, segments: kept, error: { digest: digests[failures.indexOf(first)]! } };
}

export async function resolvePage(
  runtime: RouteRuntime,
  match: RouteMatch,
  pageRequest: PageRequest,
  url: readonly string[],
): Promise<ResolvedPage> {
  // Each step below answers at once when the modules it reads are loaded, which after the first
  // request they are: a step awaited needlessly costs a promise and a turn of the microtask queue,
  // and every promise made while a request's scope is current also runs Node's async hooks.
  const searched = withSearch(runtime, match, pageRequest);
  const req = searched instanceof PageRequest ? searched : await searched;
  const first = match.branch.findIndex((node) => node.files.loading);
  // An auto prefetch stops at the first loading state: its layout loads, what it wraps does not.
  const cut = req.cutAtLoading ? first : -1;
  const plan = planPage(match.branch, url, match.params, cut, match.slotOnly ? 'default' : 'page');
  const { segments } = plan;
  if (plan.missingDefault && !req.keepsUnmatchedSlots) {
    return resolveNotFound(runtime, segments.slice(0, plan.missingDefault.mainIndex + 1), match, req);
  }
  // Only a slot matched the URL, and the layout's children have no default to show instead:
  // a document is a not-found, page data leaves the client to keep what the children show.
  if (match.slotOnly && !match.branch.at(-1)!.files.default && !req.keepsUnmatchedSlots) {
    return resolveNotFound(runtime, segments, match, req);
  }
  // What renders outside the first loading state: the segments above it and its own layout.
  const outside = (job: LoadJob) =>
    job.mainIndex < first ||
    (job.mainIndex === first && !(job.kind === 'pageData' && job.segment === segments[first]));
  const jobs = cut < 0 ? plan.jobs : plan.jobs.filter(outside);
  const streams = req.streamBelowLoading && first >= 0 ? jobs.filter((job) => !outside(job)) : [];
  let failed: LoadFailed | undefined;
  try {
    await runJobs(
      runtime,
      jobs.filter((job) => !streams.includes(job)),
      req,
    );
  } catch (error) {
    if (error instanceof LoadFailed) failed = error;
    else if (error instanceof CutAt)
      return resolveNotFound(runtime, segments.slice(0, error.index + 1), match, req);
    else throw error;
  }
  const state: PageState = {
    buildId: req.buildId,
    url: req.url,
    pattern: match.pattern,
    params: match.params,
    searchParams: req.searchParams,
    segments,
  };
  if (req.search !== undefined) state.search = req.search;
  if (match.slotOnly) state.slotOnly = true;
  if (failed) {
    const caught = caughtPage(state, failed, req.onLoadError);
    return withHead(runtime, caught, 500);
  }
  if (cut >= 0) state.pendingAt = cut;
  if (streams.length > 0) {
    for (const job of streams) job.segment[job.kind] = track(Promise.resolve(startJob(runtime, job, req)));
    state.streamed = streams.map((job) => streamedId(job.segment.dir, job.kind));
  }
  const pageServer = match.branch.at(-1)?.files['page.server'];
  if (pageServer) {
    const cachePolicy = declaredCachePolicy(
      pageServer,
      runtime.ready(pageServer) ?? (await runtime.load(pageServer)),
    );
    if (cachePolicy) state.cachePolicy = cachePolicy;
  }
  return withHead(runtime, state, 200);
}

/**
 * Validates the search params with the `search` schema the page's `page.server` exports, if
 * any. Invalid params are the request's fault: an `HttpError` 400 naming each parameter.
 */
function withSearch(
  runtime: RouteRuntime,
  match: Pick<RouteMatch, 'branch' | 'slotOnly'>,
  req: PageRequest,
): PageRequest | Promise<PageRequest> {
  const file = match.slotOnly ? undefined : match.branch.at(-1)?.files['page.server'];
  if (!file) return req;
  const module = runtime.ready(file);
  if (module && module.search === undefined) return req;
  return validatedSearch(runtime, file, module, req);
}

async function validatedSearch(
  runtime: RouteRuntime,
  file: string,
  module: Record<string, unknown> | undefined,
  req: PageRequest,
): Promise<PageRequest> {
  const { search: schema } = module ?? (await runtime.load(file));
  if (schema === undefined) return req;
  if (!isStandardSchema(schema))
    throw new TypeError(`${file} exports a "search" that is not a Standard Schema`);
  const result = await validateSearch(schema, req.searchParams);
  if ('message' in result) throw new HttpError(400, result.message);
  return new PageRequest({ ...req, search: result.value });
}

/**
 * An intercepted route, for a slot of the page the client shows: the slot's state
 * and its modules. `undefined` when its loaders say not found: the plain route answers.
 */
export async function resolveIntercepted(
  runtime: RouteRuntime,
  found: InterceptMatch,
  req: PageRequest,
  url: readonly string[],
): Promise<{ slot: SlotState; modules: Map<string, RouteModule> } | undefined> {
  const { interception } = found;
  const plan = planSlot(
    found.branch,
    url,
    found.params,
    dirOf(interception.owner),
    interception.prefix.length,
  );
  if (plan.missingDefault) return undefined;
  // The intercepting page validates its search params as the plain page does.
  const searched = await withSearch(runtime, { branch: found.branch }, req);
  try {
    await runJobs(runtime, plan.jobs, searched);
  } catch (error) {
    if (error instanceof CutAt) return undefined;
    // No boundary is looked for here: the first error fails the answer.
    if (error instanceof LoadFailed) throw error.failures[0]!.reason;
    throw error;
  }
  const slot: SlotState = { ...plan.slot, intercepted: true };
  const modules = await loadModules(runtime, segmentFilesOf(slot.segments));
  const head = interceptedHead(slot, modules);
  if (head.length > 0) slot.head = head;
  return { slot, modules };
}

/**
 * The prefetch windows a page declares for itself:
 * `export const cachePolicy = { freshMs: 5_000, staleMs: 60_000 }` in its `page.server`.
 */
function declaredCachePolicy(file: string, module: Record<string, unknown>) {
  const declared = module.cachePolicy as { freshMs?: unknown; staleMs?: unknown } | undefined;
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
  return withHead(runtime, state, 404);
}

/**
 * A resolved page: its modules, and its head made from them, which the browser gets ready. A
 * document's is made without the data still streaming (see streamed-html.ts).
 */
function withHead(
  runtime: RouteRuntime,
  state: PageState,
  status: ResolvedPage['status'],
): ResolvedPage | Promise<ResolvedPage> {
  const files = filesOf(state);
  const headed = (modules: Map<string, RouteModule>): ResolvedPage => {
    const head = pageHead(state, modules);
    if (head.length > 0) state.head = head;
    return { state, modules, status };
  };
  const loaded = loadedModules(runtime, files);
  return loaded ? headed(loaded) : loadModules(runtime, files).then(headed);
}

async function loadLayoutData(
  runtime: RouteRuntime,
  state: PageState,
  match: RouteMatch | undefined,
  req: PageRequest,
) {
  // A URL no route matches still renders in the root layout, with the root layout's data.
  const branch = match?.branch ?? [runtime.tree];
  const args = new LoaderArgs(req, match?.params ?? {});
  await Promise.all(
    state.segments.map(async (segment, i) => {
      const file = branch[i]?.files['layout.server'];
      const data = await Promise.resolve(runLoad(runtime, file, args, req.tracer)).catch((error: unknown) => {
        // A layout that throws notFound() for its own URL has nothing better to show.
        if (isNotFound(error)) return undefined;
        throw error;
      });
      if (data !== undefined) segment.layoutData = data;
    }),
  );
}

/** The modules of component files, each checked for its component (its default export). */
export async function loadModules(
  runtime: RouteRuntime,
  files: readonly string[],
): Promise<Map<string, RouteModule>> {
  return (
    loadedModules(runtime, files) ??
    checked(files, await Promise.all(files.map((file) => runtime.load(file))))
  );
}

/** `loadModules` when every module is loaded already, else `undefined`. */
function loadedModules(
  runtime: RouteRuntime,
  files: readonly string[],
): Map<string, RouteModule> | undefined {
  const ready = files.map((file) => runtime.ready(file));
  return ready.every((module) => module !== undefined) ? checked(files, ready) : undefined;
}

function checked(
  files: readonly string[],
  modules: readonly Record<string, unknown>[],
): Map<string, RouteModule> {
  files.forEach((file, i) => {
    if (typeof modules[i]!.default !== 'function') {
      throw new TypeError(`${file} must export a React component as its default export`);
    }
  });
  return new Map(files.map((file, i) => [file, modules[i] as unknown as RouteModule]));
}
