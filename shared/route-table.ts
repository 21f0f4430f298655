/**
 * The route table, as the browser reads it: the build flattens the route tree into every way a
 * URL can match it, in the order `matchRoute` tries them (build-route-table.ts), and the browser
 * takes the first entry that fits a URL, to start the branch's scripts beside its data and to
 * know whether it shows a loading state at once. Nothing of the tree ships.
 */

/** A segment of an entry: a folder name the URL segment must equal, or a param's kind. */
export type TableSegment = string | typeof DYNAMIC | typeof CATCH_ALL | typeof OPTIONAL_CATCH_ALL;
export const DYNAMIC = 1;
export const CATCH_ALL = 2;
export const OPTIONAL_CATCH_ALL = 3;

/**
 * One way to match: the URL's segments, the component files the branch renders (the page's
 * only for the last folder), and `1` when one of its folders has a loading state.
 */
export type RouteTableEntry = readonly [
  segments: readonly TableSegment[],
  files: readonly string[],
  loading: 0 | 1,
];

/**
 * The first entry whose segments fit the pathname's: a name equals its segment, a `[param]`
 * takes one, a `[...catchAll]` the rest (one at least), a `[[...optional]]` the rest. The
 * pathname's segments are read as `decodePathname` (match-route.ts) reads them: empty ones
 * dropped, each percent-decoded, and a malformed escape matches nothing. That is written again
 * here so that the browser's router needs no code of the tree's matcher; a test holds the two
 * alike.
 */
export function matchTable(table: readonly RouteTableEntry[], pathname: string): RouteTableEntry | undefined {
  let segments: string[];
  try {
    segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined;
  }
  return table.find(([pattern]) => {
    let at = 0;
    for (const part of pattern) {
      if (part === OPTIONAL_CATCH_ALL || (part === CATCH_ALL && at < segments.length)) at = segments.length;
      else if (at < segments.length && (part === DYNAMIC || part === segments[at])) at++;
      else return false;
    }
    return at === segments.length;
  });
}
