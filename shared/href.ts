/**
 * Typed URLs. The generated `routes.d.ts` of an app fills `Register` with its routes; then `Href`
 * is the union of URLs some route answers (plus `?…`, `#…` and absolute URLs), and `href()`
 * takes a pattern with exactly its params. An app with no generated types gets plain strings.
 * A URL given to `Link`, `push` or `redirect` is inferred and its path looked up among the
 * paths that share its first segment: a few template literal matches, no recursion over strings,
 * and never a comparison with every route of the app.
 */
import { parseSegment } from './segment.js';

/**
 * Filled by the app's generated `routes.d.ts` through module augmentation:
 * `declare module 'switchyard-react' { interface Register { routes: { … } } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface Register {}

/** Each route pattern: its params and the URLs it answers, as a template literal type. */
export type RouteMap = Record<string, { params: Record<string, string | string[]>; path: string }>;

/** The app's routes, or `undefined` when it registered none. */
export type RegisteredRoutes = Register extends { routes: infer R extends RouteMap } ? R : undefined;

/** Absolute URLs leave the app: the router does not check them. */
export type ExternalUrl = `http://${string}` | `https://${string}` | `mailto:${string}` | `tel:${string}`;

/** The URLs a link may go to in an app with these routes. */
export type UrlOf<R extends RouteMap> =
  | R[keyof R]['path']
  | `${R[keyof R]['path']}?${string}`
  | `${R[keyof R]['path']}#${string}`
  | `?${string}`
  | `#${string}`
  | ExternalUrl;

/** A URL some route of the app answers; any string in an app without generated route types. */
export type Href = HrefIn<RegisteredRoutes>;
type HrefIn<R> = R extends RouteMap ? UrlOf<R> : string;

/**
 * What a link, `push` or `redirect` given the URL `U` accepts: `string` when some route of the
 * app answers every member of `U` (or it leaves the app), else `U` branded with the members no
 * route answers, so that the compiler's error shows the bad string. The functions infer `U`
 * from their argument (through the `U &` of the error branch). A good URL gives `string`
 * whatever it is, so a call or a link instantiates nothing per URL beyond this check.
 */
export type CheckedHref<U extends string> = RegisteredUrls extends UrlGroups
  ? [UnknownUrls<U, RegisteredUrls>] extends [never]
    ? string
    : U & UnknownUrl<UnknownUrls<U, RegisteredUrls>>
  : string;

/** The brand of a URL no route answers: the compiler's error names it. */
export interface UnknownUrl<U extends string> {
  readonly 'no route of this app answers': U;
}

/** The generated URL paths by first segment; see `urls` in `routes.d.ts`. */
type UrlGroups = Record<string, string>;
type RegisteredUrls = Register extends { urls: infer U extends UrlGroups } ? U : undefined;

/**
 * A function taking a URL as its first parameter: generic in the URL when the app has route
 * types, so that each call checks its own URL; plain `string` without them, at no cost.
 */
export type TakingHref<Rest extends unknown[], R> = RegisteredUrls extends UrlGroups
  ? <U extends string>(href: CheckedHref<U>, ...rest: Rest) => R
  : (href: string, ...rest: Rest) => R;

/**
 * The members of `U` no route answers (a union of URLs is checked one by one). Generic in `M`,
 * as the helpers below. Most URLs are the app's own and start with a first segment the app
 * has: they are compared at once with the paths under it, the whole URL with its `?…` and
 * `#…` (a path's template ends in `${string}` or matches exactly). The rest, and the URLs that
 * fail there, take the longer way: their path alone, a first segment no static path has, an
 * absolute URL, `?…` or `#…` alone.
 */
type UnknownUrls<U extends string, M extends UrlGroups> = U extends `/${infer Head}/${string}`
  ? Head extends keyof M
    ? U extends M[Head]
      ? never
      : Unlisted<U, M>
    : Unlisted<U, M>
  : U extends `/${infer Head}`
    ? Head extends keyof M
      ? U extends M[Head]
        ? never
        : Unlisted<U, M>
      : Unlisted<U, M>
    : Unlisted<U, M>;
/** One URL that is not among the paths under its first segment as it is written. */
type Unlisted<U extends string, M extends UrlGroups> =
  PathOf<U> extends GroupOf<PathOf<U>, M>
    ? never
    : U extends ExternalUrl | `?${string}` | `#${string}`
      ? never
      : U;
/** A URL's path: what comes before its `#` and `?`. */
type PathOf<U extends string> = U extends `${infer P}#${string}` ? BeforeQuery<P> : BeforeQuery<U>;
type BeforeQuery<U extends string> = U extends `${infer P}?${string}` ? P : U;
/** The paths that may answer `Path`: those under its first segment, or with a param first. */
type GroupOf<Path extends string, M extends UrlGroups> = Path extends `/${infer Head}/${string}`
  ? M[Head extends keyof M ? Head : '[dynamic]']
  : Path extends `/${infer Head}`
    ? M[Head extends keyof M ? Head : '[dynamic]']
    : never;

type ParamValue = string | number;
type ParamsOf<T extends Record<string, string | string[]>> = {
  [K in keyof T]: T[K] extends string[] ? readonly ParamValue[] : ParamValue;
};

/** The params argument of `href(pattern, …)`: required when the pattern has any. */
export type HrefArgs<R extends RouteMap, P extends keyof R> = keyof R[P]['params'] extends never
  ? [params?: Record<string, never>]
  : [params: ParamsOf<R[P]['params']>];

type Pattern = RegisteredRoutes extends RouteMap ? keyof RegisteredRoutes & string : string;
/**
 * The params and result of `href(pattern)`. Generic in the route map `R` so that checking them
 * never relates the app's thousand patterns to each other.
 */
type Args<R, P> = R extends RouteMap
  ? P extends keyof R
    ? HrefArgs<R, P>
    : never
  : [params?: Record<string, ParamValue | readonly ParamValue[]>];
type Result<R, P> = R extends RouteMap ? (P extends keyof R ? R[P]['path'] : never) : string;

/**
 * The URL of a route pattern with these params, each value percent-encoded; a catch-all takes
 * an array. Throws on a missing or extra param, an empty value, or a `/` inside a value.
 *
 * @example
 * href('/photos/[id]', { id: 3 }); // '/photos/3'
 * href('/docs/[...path]', { path: ['a', 'b c'] }); // '/docs/a/b%20c'
 */
export function href<P extends Pattern>(
  pattern: P,
  ...args: Args<RegisteredRoutes, P>
): Result<RegisteredRoutes, P> {
  const params: Record<string, ParamValue | readonly ParamValue[] | undefined> = { ...args[0] };
  const segments: string[] = [];
  for (const part of pattern.split('/').filter(Boolean)) {
    const segment = parseSegment(part);
    if (segment.kind === 'static') {
      segments.push(part);
      continue;
    }
    if (segment.kind !== 'dynamic' && segment.kind !== 'catchAll' && segment.kind !== 'optionalCatchAll') {
      throw new Error(
        `href("${pattern}"): "${part}" is not part of a URL pattern; groups and slots leave no trace in a URL`,
      );
    }
    const value = params[segment.param];
    delete params[segment.param];
    if (segment.kind === 'dynamic') {
      if (value === undefined || Array.isArray(value)) {
        throw new Error(`href("${pattern}"): the param "${segment.param}" needs one value`);
      }
      segments.push(encodeValue(pattern, segment.param, value as ParamValue));
      continue;
    }
    if (value === undefined && segment.kind === 'optionalCatchAll') continue;
    if (!Array.isArray(value) || (segment.kind === 'catchAll' && value.length === 0)) {
      throw new Error(
        `href("${pattern}"): the param "${segment.param}" needs an array of ${segment.kind === 'catchAll' ? 'one or more' : 'zero or more'} segments`,
      );
    }
    for (const item of value as readonly ParamValue[])
      segments.push(encodeValue(pattern, segment.param, item));
  }
  const extra = Object.keys(params);
  if (extra.length > 0)
    throw new Error(`href("${pattern}"): no param ${extra.map((p) => `"${p}"`).join(', ')} in this pattern`);
  return `/${segments.join('/')}` as Result<RegisteredRoutes, P>;
}

function encodeValue(pattern: string, param: string, value: ParamValue): string {
  const text = String(value);
  if (text === '' || text.includes('/')) {
    throw new Error(
      `href("${pattern}"): the param "${param}" is ${text === '' ? 'empty' : `"${text}", with a "/"`}; each value is one URL segment`,
    );
  }
  return encodeURIComponent(text);
}
