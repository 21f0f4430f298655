/**
 * Builds the route table (route-table.ts) from the route tree, for the build's route module and
 * the testing kit. `matchRoute` walks the tree depth first: at each folder its page (when the URL
 * ends there), then its static children, then `[param]`, `[...catchAll]` and `[[...optional]]`,
 * each child's whole subtree before the next. The table lists the branches that end in a page in
 * that order, so the first entry that fits a URL is the branch `matchRoute` finds; then, as
 * `matchRoute` does when no page matched, the layouts whose `@slot` matches the rest of the URL,
 * deepest first, each with the branch down to the layout (its children show nothing).
 */
import { candidatesOf, pageBranch } from './match-route.js';
import { COMPONENT_FILES, type RouteNode } from './route-node.js';
import {
  CATCH_ALL,
  DYNAMIC,
  OPTIONAL_CATCH_ALL,
  type RouteTableEntry,
  type TableSegment,
} from './route-table.js';
import { parseSegment, type Segment } from './segment.js';

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

/** Whether an app has slots: a route file below a `@slot` folder. */
export const hasSlots = (files: readonly string[]): boolean => anyFolder(files, 'slot');

/** Whether an app intercepts: a route file below a folder marked `(.)`, `(..)` or `(...)`. */
export const intercepts = (files: readonly string[]): boolean => anyFolder(files, 'intercept');

function anyFolder(files: readonly string[], kind: Segment['kind']): boolean {
  return files.some((file) => file.split('/').some((name) => parseSegment(name).kind === kind));
}
