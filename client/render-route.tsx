/**
 * Turns a page state and its loaded components into the React tree. The server and the client
 * call this same function with the same state, which is what makes hydration match.
 *
 * Each segment nests, outermost first: layout → error boundary → Suspense (loading) → below.
 * A layout whose segment has slots gets each slot's own branch, rendered the same way, as a
 * prop beside `children`.
 * Each segment is keyed by its folder and its params, so a navigation keeps the state of the
 * segments whose params did not change and remounts the others. The page's head tags render once,
 * beside the tree (head-tags.tsx).
 */
import { Fragment, Suspense, use, type ComponentType, type ReactElement, type ReactNode } from 'react';
import type { Params } from '../shared/match-route.js';
import { segmentKey, type PageState, type SegmentState, type SlotState } from '../shared/page-state.js';
import { isTracked, type Tracked } from '../shared/streamed-data.js';
import { SegmentErrorBoundary, SignalBoundary } from './error-boundary.js';
import { HeadTags } from './head-tags.js';
import type { ErrorProps } from './types.js';

// Route modules are typed loosely here: each role fixes its own props below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyComponent = ComponentType<any>;

/**
 * What is read of a route file's module: its component, and on the server its `head`
 * (server/render/page-head.ts). The browser's route map imports the component alone.
 */
export interface RouteModule {
  default: AnyComponent;
  head?: unknown;
}

/** Route modules by route file, as both sides load them. */
export type ModuleMap = ReadonlyMap<string, RouteModule>;

/** Used when the app has no root layout: the document still needs `<html>` and `<body>`. */
function DefaultRootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

/** Used when the app has no root `not-found.tsx`. */
export function DefaultNotFound() {
  return (
    <main>
      <title>404: This page could not be found.</title>
      <h1>404</h1>
      <p>This page could not be found.</p>
    </main>
  );
}

/** Reads streamed data: suspends until it arrives, then renders with it. */
function Await({ data, render }: { data: Tracked; render: (data: unknown) => ReactNode }) {
  return render(use(data as Promise<unknown>));
}

/** `render(data)`, through `Await` when the data is still streaming in. */
function withData(data: unknown, render: (data: unknown) => ReactNode): ReactNode {
  return isTracked(data) ? <Await data={data} render={render} /> : render(data);
}

export function renderRoute(state: PageState, modules: ModuleMap, assets?: ReactNode): ReactElement {
  const component = (file: string | undefined): AnyComponent | undefined => {
    if (file === undefined) return undefined;
    const found = modules.get(file);
    if (!found) throw new Error(`switchyard: the component of ${file} was not loaded`);
    return found.default;
  };
  const { params, searchParams, search, segments, pendingAt } = state;
  // Boundaries clear what they caught when the pathname changes.
  const pathname = state.url.split('?')[0]!;
  const last = segments.at(-1);
  // A loader's error caught by the last segment's `error.tsx`: its boundary shows the fallback.
  const caughtDigest = state.error?.digest;
  const showsLeaf = pendingAt === undefined && caughtDigest === undefined;
  // A layout whose children have no page at this URL (only a slot matched) shows its default.
  const leafFile = state.notFound ?? last?.files.page ?? last?.files.default;
  const Leaf = showsLeaf ? component(leafFile) : undefined;
  const leaf: ReactNode = !showsLeaf ? null : Leaf ? (
    <Fragment key={leafFile}>
      {withData(state.notFound ? undefined : last?.pageData, (data) => (
        <Leaf params={params} searchParams={searchParams} search={search} data={data} />
      ))}
    </Fragment>
  ) : (
    <DefaultNotFound />
  );

  /**
   * Wraps `tree` in the segments of a run, innermost first, from the last one (or `stopAt`,
   * which shows its loading state in place of what is below) up to the first. The layout of a
   * segment with slots gets each slot's own branch as a prop beside `children`.
   */
  const wrap = (
    run: readonly SegmentState[],
    tree: ReactNode,
    branchParams: Params,
    stopAt?: number,
  ): ReactNode => {
    for (let i = stopAt ?? run.length - 1; i >= 0; i--) {
      const segment = run[i]!;
      const key = segmentKey(segment.dir, branchParams);
      const Loading = component(segment.files.loading);
      const isRoot = run === segments && i === 0;
      // The root always has one: redirects and a not-found with no boundary of its own end there.
      const NotFound = component(segment.files['not-found']) ?? (isRoot ? DefaultNotFound : undefined);
      if (NotFound) {
        tree = (
          <SignalBoundary notFound={NotFound} resetKey={pathname}>
            {tree}
          </SignalBoundary>
        );
      }
      if (i === stopAt) tree = Loading ? <Loading /> : null;
      else if (Loading) tree = <Suspense fallback={<Loading />}>{tree}</Suspense>;
      const ErrorFallback = component(segment.files.error) as ComponentType<ErrorProps> | undefined;
      if (ErrorFallback) {
        const caught = run === segments && i === segments.length - 1 ? caughtDigest : undefined;
        tree = (
          <SegmentErrorBoundary
            fallback={ErrorFallback}
            resetKey={pathname}
            {...(caught === undefined ? {} : { serverDigest: caught })}
          >
            {tree}
          </SegmentErrorBoundary>
        );
      }
      const Layout =
        component(segment.files.layout) ?? (isRoot ? (DefaultRootLayout as AnyComponent) : undefined);
      const slots = Object.fromEntries(
        Object.entries(segment.slots ?? {}).map(([name, slot]) => [name, renderSlot(slot)]),
      );
      if (Layout) {
        const children = tree;
        tree = withData(segment.layoutData, (data) => (
          <Layout params={branchParams} searchParams={searchParams} data={data} {...slots}>
            {children}
          </Layout>
        ));
      }
      tree = <Fragment key={key}>{tree}</Fragment>;
    }
    return tree;
  };

  const renderSlot = (slot: SlotState): ReactNode => {
    const end = slot.segments.at(-1)!;
    const Shown = component(slot.shows === 'page' ? end.files.page : end.files.default);
    const shown = Shown ? (
      <Fragment key={end.dir}>
        {withData(end.pageData, (data) => (
          <Shown params={slot.params} searchParams={searchParams} data={data} />
        ))}
      </Fragment>
    ) : null;
    return wrap(slot.segments, shown, slot.params);
  };

  // A partial state (an auto prefetch) renders down to its pending segment's loading state.
  const tree = wrap(segments, leaf, params, pendingAt);
  return (
    <>
      {assets}
      <HeadTags state={state} />
      {tree}
    </>
  );
}
