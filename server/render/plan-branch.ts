/**
 * Lays out what a match renders, slots included: a segment state per node of the branch and,
 * for each `@slot` folder beside a node, the slot's own branch — matched against the URL from
 * its owner's depth, or the slot's `default.tsx` when nothing in it matches, or `unmatched`
 * when it has none. It also lists the loaders to run, each with the params of its own branch.
 * No I/O here.
 */
import { matchBelow, type Params } from '../../shared/match-route.js';
import type { SegmentState, SlotState } from '../../shared/page-state.js';
import { COMPONENT_FILES, type RouteNode } from '../../shared/route-tree.js';
import type { Segment } from '../../shared/segment.js';

export interface LoadJob {
  segment: SegmentState;
  file: string;
  kind: 'layoutData' | 'pageData';
  params: Params;
  /** The main-branch segment this job belongs to (a slot's jobs belong to its owner). */
  mainIndex: number;
}

export interface Plan {
  segments: SegmentState[];
  jobs: LoadJob[];
  /**
   * A slot with neither a match nor a `default.tsx` (shown as `unmatched`): a document is a
   * not-found at its owner; a soft navigation keeps what the slot showed.
   */
  missingDefault?: { mainIndex: number; slot: string };
}

interface Place {
  /** Folder of the node above the branch, relative to the app directory. */
  dir: string;
  /** URL segments consumed above the branch. */
  depth: number;
  /** Set for a slot's branch: the main-branch index of its owner. */
  owner?: number;
  /** Main-branch segments above `owner` may be cut by an auto prefetch; this many are kept. */
  keepSlotsUpTo?: number;
  /** What the last node shows; `page` unless said. */
  leaf?: 'page' | 'default';
}

/**
 * The plan of a main branch, from the root. Its last node shows its page, or for a URL that
 * only a slot matched (`leaf: 'default'`), its `default.tsx` in place of the page.
 */
export function planPage(
  nodes: readonly RouteNode[],
  url: readonly string[],
  params: Params,
  cutAt = -1,
  leaf: 'page' | 'default' = 'page',
): Plan {
  const plan: Plan = { segments: [], jobs: [] };
  const place = { dir: '', depth: 0, keepSlotsUpTo: cutAt, leaf };
  plan.segments = planNodes(nodes, url, params, place, plan);
  return plan;
}

/** The plan of one slot's branch (an intercepted route), owned by the main segment `owner`. */
export function planSlot(
  nodes: readonly RouteNode[],
  url: readonly string[],
  params: Params,
  ownerDir: string,
  depth: number,
): Plan & { slot: SlotState } {
  const plan: Plan = { segments: [], jobs: [] };
  const segments = planNodes(nodes, url, params, { dir: ownerDir, depth, owner: 0 }, plan);
  return { ...plan, slot: { segments, params, shows: 'page' } };
}

function planNodes(
  nodes: readonly RouteNode[],
  url: readonly string[],
  params: Params,
  place: Place,
  plan: Plan,
): SegmentState[] {
  let { dir, depth } = place;
  return nodes.map((node, i) => {
    if (node.segment) dir = dir ? `${dir}/${node.name}` : node.name;
    depth = node.segment ? depthAfter(node.segment, depth, url.length) : depth;
    const leaf = i === nodes.length - 1 ? (place.leaf ?? 'page') : undefined;
    const segment: SegmentState = { dir, files: componentFiles(node, leaf) };
    const mainIndex = place.owner ?? i;
    addJob(plan, segment, node.files['layout.server'], 'layoutData', params, mainIndex);
    if (leaf === 'page') addJob(plan, segment, node.files['page.server'], 'pageData', params, mainIndex);
    // An auto prefetch stops at a loading state: slots below it are not rendered, nor loaded.
    const cut = place.keepSlotsUpTo ?? -1;
    if (place.owner === undefined && cut >= 0 && i > cut) return segment;
    const slots = planSlots(node, url, params, { dir, depth, owner: mainIndex }, plan);
    if (slots) segment.slots = slots;
    return segment;
  });
}

function planSlots(
  node: RouteNode,
  url: readonly string[],
  params: Params,
  place: Required<Pick<Place, 'dir' | 'depth' | 'owner'>>,
  plan: Plan,
): Record<string, SlotState> | undefined {
  const slotNodes = node.children.filter((c) => c.segment?.kind === 'slot');
  if (slotNodes.length === 0) return undefined;
  const slots: Record<string, SlotState> = {};
  for (const slotNode of slotNodes) {
    const name = (slotNode.segment as { name: string }).name;
    const found = matchBelow(slotNode, url, place.depth, params);
    if (found) {
      const segments = planNodes(found.nodes, url, found.params, place, plan);
      slots[name] = { segments, params: found.params, shows: 'page' };
    } else if (slotNode.files.default) {
      const dir = place.dir ? `${place.dir}/${slotNode.name}` : slotNode.name;
      const segment: SegmentState = { dir, files: componentFiles(slotNode, 'default') };
      addJob(plan, segment, slotNode.files['layout.server'], 'layoutData', params, place.owner);
      slots[name] = { segments: [segment], params, shows: 'default' };
    } else {
      plan.missingDefault ??= { mainIndex: place.owner, slot: name };
      slots[name] = { segments: [], params, shows: 'unmatched' };
    }
  }
  return slots;
}

type Leaf = 'page' | 'default' | undefined;

/** Each node's component files by the leaf it shows: the route tree never changes once built. */
const filesByNode = new WeakMap<RouteNode, Map<Leaf, SegmentState['files']>>();

/**
 * A node's component files; `page` or `default` only where that node is the leaf shown. Worked
 * out once per node and leaf, then shared by every request's state (frozen: none may change it).
 */
function componentFiles(node: RouteNode, leaf: Leaf): SegmentState['files'] {
  let byLeaf = filesByNode.get(node);
  if (!byLeaf) filesByNode.set(node, (byLeaf = new Map()));
  let files = byLeaf.get(leaf);
  if (!files) byLeaf.set(leaf, (files = Object.freeze(ownComponentFiles(node, leaf))));
  return files;
}

function ownComponentFiles(node: RouteNode, leaf: Leaf): SegmentState['files'] {
  const files: SegmentState['files'] = {};
  for (const role of COMPONENT_FILES) {
    const file = node.files[role];
    if (!file) continue;
    if ((role === 'page' || role === 'default') && role !== leaf) continue;
    files[role] = file;
  }
  return files;
}

function addJob(
  plan: Plan,
  segment: SegmentState,
  file: string | undefined,
  kind: LoadJob['kind'],
  params: Params,
  mainIndex: number,
): void {
  if (file) plan.jobs.push({ segment, file, kind, params, mainIndex });
}

/** URL segments consumed once past a segment: one for a static or dynamic one, all for a catch-all. */
function depthAfter(segment: Segment, depth: number, total: number): number {
  switch (segment.kind) {
    case 'static':
    case 'dynamic':
      return depth + 1;
    case 'catchAll':
    case 'optionalCatchAll':
      return total;
    case 'intercept':
      return depthAfter(segment.segment, depth, total);
    case 'group':
    case 'slot':
      return depth;
  }
}
