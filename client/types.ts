/**
 * The props the router gives route components, and the argument of `load`. Each helper takes
 * either a URL pattern the app's generated route types register (`PageProps<'/photos/[id]'>`:
 * params, data and search follow from the route's own files) or hand-written types
 * (`PageProps<{ id: string }, Data>`), told apart by whether the first argument is a string.
 */
import type { ReactNode } from 'react';
import type { Register } from '../shared/href.js';
import type { Params } from '../shared/match-route.js';
import type { InferOutput, StandardSchemaV1 } from '../shared/standard-schema.js';

export type { Params };
export type { SearchParams } from '../shared/page-state.js';
import type { SearchParams } from '../shared/page-state.js';

/** What the generated types register for one pattern: its params and its server modules. */
interface PatternEntry {
  params: object;
  /** The `page.server` / `layout.server` modules of the pattern; `undefined` for a file with none. */
  server: unknown;
}

/** The page patterns of the app's generated types; none without them. */
type Pages = Register extends { pages: infer T } ? T : Record<never, never>;
/** The layout patterns (a layout folder's URL pattern, `/` for the root). */
type Layouts = Register extends { layouts: infer T } ? T : Record<never, never>;
type Routes = Register extends { routes: infer T } ? T : Record<never, never>;

/**
 * The entry of pattern `P` in map `M`. Every lookup goes through this generic form: checking
 * `Pages[P]` written against the app's own map would relate each of its thousand patterns to
 * each other one, once per helper.
 */
type EntryOf<M, P> = P extends keyof M ? M[P] : never;

/** A URL pattern with a page: `'/photos/[id]'`. */
export type PagePattern = keyof Pages & string;
/** A URL pattern with a layout: `'/'`, `'/photos'`. */
export type LayoutPattern = keyof Layouts & string;

/** The data a server module's `load` resolves to; `undefined` without a module or a `load`. */
type DataOf<M> = M extends { load: (...args: never[]) => infer R } ? Settled<R> : undefined;
/**
 * What a `load` result settles to: a `Promise`'s value, or the value itself. Not `Awaited`,
 * whose matching of `then` costs about 200 type instantiations per page (six times the rest of
 * `PageProps`); a `load` returns a `Promise` (any `async` function does) or a plain value.
 */
type Settled<R> = R extends Promise<infer T> ? T : R;
/** The output of a module's `search` schema; `undefined` (what `load` gets) without one. */
type SearchOf<M> = M extends { search: infer S extends StandardSchemaV1 } ? InferOutput<S> : undefined;

interface GenericPageProps<P, D, S> {
  params: P;
  searchParams: SearchParams;
  /** The output of the `search` schema the `page.server.ts` beside this page exports. */
  search: S;
  /** What the `load` of the `page.server.ts` beside this page returned (`undefined` without one). */
  data: D;
}

/** Looked up by pattern without a constraint on `P`: a `Params | pattern` argument would spoil the index. */
type PagePropsOf<P> = PagePropsIn<EntryOf<Pages, P>>;
type PagePropsIn<E> = E extends PatternEntry
  ? GenericPageProps<E['params'], DataOf<E['server']>, SearchOf<E['server']>>
  : never;

/**
 * The props of a page: `params`, `searchParams`, `search` (its schema's output) and `data`
 * (what its `load` returned).
 *
 * @example
 * export default function Photo({ params, data }: PageProps<'/photos/[id]'>) {
 *   return <h1>{data.photo.title}</h1>; // `data` is what photos/[id]/page.server.ts's load returns
 * }
 * // Without generated types: PageProps<{ id: string }, PhotoData>
 */
export type PageProps<P extends Params | PagePattern = Params, D = unknown, S = unknown> = P extends string
  ? PagePropsOf<P>
  : GenericPageProps<P, D, S>;

interface GenericLayoutProps<P, D> {
  params: P;
  searchParams: SearchParams;
  /** What the `load` of the `layout.server.ts` beside this layout returned (`undefined` without one). */
  data: D;
  children: ReactNode;
}

type LayoutPropsOf<P> = LayoutPropsIn<EntryOf<Layouts, P>>;
type LayoutPropsIn<E> = E extends PatternEntry & { slots: string }
  ? GenericLayoutProps<E['params'], DataOf<E['server']>> & { [Slot in E['slots']]: ReactNode }
  : never;

/**
 * The props of a layout: `children`, one `ReactNode` per slot folder (`@modal` → `modal`),
 * and `data` from its `layout.server`'s `load`.
 *
 * @example
 * export default function PhotosLayout({ children, modal }: LayoutProps<'/photos'>) {
 *   return <main>{children}{modal}</main>;
 * }
 */
export type LayoutProps<P extends Params | LayoutPattern = Params, D = unknown> = P extends string
  ? LayoutPropsOf<P>
  : GenericLayoutProps<P, D>;

export interface ErrorProps {
  error: Error & { digest?: string };
  reset: () => void;
}

interface GenericLoadArgs<P, S> {
  params: P;
  searchParams: SearchParams;
  /** The output of the `search` schema this `page.server.ts` exports, once it validated. */
  search: S;
  /** The incoming request, as a web `Request`. */
  request: Request;
}

/**
 * What `load` receives. For a page pattern, `search` is the output of the `search` schema its
 * `page.server` exports; a layout's `load` runs for every page below it, so there it is `unknown`.
 *
 * @example
 * export async function load({ params, search }: LoadArgs<'/photos/[id]'>) {
 *   return { photo: await getPhoto(params.id), before: search.before };
 * }
 */
export type LoadArgs<P extends Params | PagePattern | LayoutPattern = Params, S = unknown> = P extends string
  ? LoadArgsOf<P>
  : GenericLoadArgs<P, S>;

type LoadArgsOf<P> = P extends PagePattern
  ? LoadArgsIn<EntryOf<Pages, P>, true>
  : LoadArgsIn<EntryOf<Layouts, P>, false>;
type LoadArgsIn<E, Page extends boolean> = E extends PatternEntry
  ? GenericLoadArgs<E['params'], Page extends true ? SearchOf<E['server']> : unknown>
  : never;

/** A URL pattern of a page, a layout or a route handler: what `useParams` accepts. */
export type ParamsPattern = PagePattern | LayoutPattern | (keyof Routes & string);

/** The params of a pattern: `{ id: string }` for `/photos/[id]`. */
export type ParamsOf<P extends ParamsPattern> = ParamsIn<
  P extends PagePattern
    ? EntryOf<Pages, P>
    : P extends LayoutPattern
      ? EntryOf<Layouts, P>
      : EntryOf<Routes, P>
>;
type ParamsIn<E> = E extends { params: infer T } ? T : never;
