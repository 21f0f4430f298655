/**
 * The route table: every way a URL can match the route tree, flattened at build time into the
 * order `matchRoute` tries them. The browser matches a URL only to start its scripts beside its
 * data and to know whether its branch shows a loading state at once; for that a loop over this
 * table does what the tree, its assembly and the matcher would, without shipping them.
 *
 * `matchRoute` walks the tree depth first: at each folder its page (when the URL ends there),
 * then its static children, then `[param]`, `[...catchAll]` and `[[...optional]]`, each child's
 * whole subtree before the next child. The table lists the branches that end in a page in that
 * same order, so the first entry whose segments fit a URL is the branch `matchRoute` finds.
 * Then, as `matchRoute` does when no page matched, the layouts whose `@slot` matches the rest of
 * the URL: deepest first, each with the branch down to the layout (its children show nothing).
 */
import { candidatesOf, pageBranch } from './match-route.js';
import { COMPONENT_FILES, type RouteNode } from './route-node.js';
import { parseSegment } from './segment.js';

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

export function routeTable(root: RouteNode): RouteTableEntry[] {
  const table: RouteTableEntry[] = [];
  pages(root, [], [root], table);
  slotOnly(root, [], [root], table);
  return table;
}

/** Each child a match can step into from `node`, in the matcher's order, with its segment. */
function steps(node: RouteNode): { path: RouteNode[]; segment: TableSegment }[] {
  const { statics, others } = candidatesOf(node);
  return [
    ...[...statics.values()].flat().map(({ path, node: child }) => ({ path, segment: child.name })),
    ...others.map(({ path, node: child }) => ({ path, segment: PARAM_KINDS[child.segment!.kind]! })),
  ];
}

const PARAM_KINDS: Partial<Record<string, TableSegment>> = {
  dynamic: DYNAMIC,
  catchAll: CATCH_ALL,
  optionalCatchAll: OPTIONAL_CATCH_ALL,
};

function pages(node: RouteNode, segments: TableSegment[], branch: RouteNode[], out: RouteTableEntry[]): void {
  const page = pageBranch(node);
  if (page) out.push(entry(segments, [...branch, ...page]));
  for (const { path, segment } of steps(node))
    pages(path.at(-1)!, [...segments, segment], [...branch, ...path], out);
}

function slotOnly(
  node: RouteNode,
  segments: TableSegment[],
  branch: RouteNode[],
  out: RouteTableEntry[],
): void {
  for (const { path, segment } of steps(node))
    slotOnly(path.at(-1)!, [...segments, segment], [...branch, ...path], out);
  for (const slot of node.children) {
    if (slot.segment?.kind !== 'slot') continue;
    const inSlot: RouteTableEntry[] = [];
    pages(slot, [], [slot], inSlot);
    for (const [rest] of inSlot) out.push(entry([...segments, ...rest], branch));
  }
}

function entry(segments: TableSegment[], branch: readonly RouteNode[]): RouteTableEntry {
  const last = branch.length - 1;
  const files = branch.flatMap((node, i) =>
    COMPONENT_FILES.filter((role) => role !== 'page' || i === last).flatMap((role) => node.files[role] ?? []),
  );
  return [segments, files, branch.some((node) => node.files.loading) ? 1 : 0];
}

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

/** Whether an app has slots: a route file below a `@slot` folder. */
export const hasSlots = (files: readonly string[]): boolean =>
  files.some((file) => file.split('/').some((name) => parseSegment(name).kind === 'slot'));

/** Whether an app intercepts: a route file below a folder marked `(.)`, `(..)` or `(...)`. */
export const intercepts = (files: readonly string[]): boolean =>
  files.some((file) => file.split('/').some((name) => parseSegment(name).kind === 'intercept'));
