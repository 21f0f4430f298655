/**
 * Matching a pathname against the route tree. At each level the candidates are tried
 * in priority order: static, `[param]`, `[...catchAll]`, `[[...optional]]`; a branch that
 * finds no page gives way to the next candidate, so a static route wins whenever it can. A
 * route handler (`route.ts`) ends a branch as a page does; the match's last node holds it.
 * Groups are looked through; interceptions never match here. Only when no page matches, a URL
 * that a `@slot` matches below some layout matches that layout, whose children have nothing to
 * show there (`slotOnly`): the deepest such layout wins.
 */
import type { RouteNode } from './route-tree.js';
import { patternOf } from './route-tree.js';
import type { Segment } from './segment.js';

export type Params = Record<string, string | string[]>;

export interface RouteMatch {
  /** The route pattern, `/photos/[id]`. */
  pattern: string;
  params: Params;
  /** Root to leaf, groups included; the last node holds the page (or the route handler). */
  branch: RouteNode[];
  /** The decoded URL segments matched. */
  segments: readonly string[];
  /** Only a slot of the last node matched: its children show its `default.tsx`, or nothing. */
  slotOnly?: true;
}

/**
 * Splits a pathname into percent-decoded segments. Empty segments (a trailing slash, `//`) are
 * dropped; an escaped slash stays inside its segment. Returns `undefined` for a malformed escape.
 */
export function decodePathname(pathname: string): string[] | undefined {
  const segments: string[] = [];
  // Most paths have nothing to decode: their segments are taken as they are.
  const encoded = pathname.includes('%');
  for (const raw of pathname.split('/')) {
    if (raw === '') continue;
    if (!encoded) segments.push(raw);
    else {
      try {
        segments.push(decodeURIComponent(raw));
      } catch {
        return undefined;
      }
    }
  }
  return segments;
}

/** The order candidates are tried in at one level, lowest first. */
export const PRIORITY: Partial<Record<Segment['kind'], number>> = {
  static: 0,
  dynamic: 1,
  catchAll: 2,
  optionalCatchAll: 3,
};

export interface Candidate {
  /** The groups passed through to reach `node`, then `node`. */
  path: RouteNode[];
  node: RouteNode;
  rank: number;
}

/**
 * A node's candidates, by kind: a static one is looked up by the URL segment it must equal
 * (several can share a name from different groups), so an app with thousands of top-level
 * folders matches as fast as one with ten; the others follow in priority order.
 */
export interface Candidates {
  statics: Map<string, Candidate[]>;
  others: Candidate[];
}

// Candidates depend only on the tree, so they are computed once per node.
const candidateCache = new WeakMap<RouteNode, Candidates>();
const NONE: Candidate[] = [];

export function candidatesOf(node: RouteNode): Candidates {
  let cached = candidateCache.get(node);
  if (!cached) {
    const all: Candidate[] = [];
    collect(node, [], all);
    all.sort((a, b) => a.rank - b.rank);
    cached = { statics: new Map(), others: [] };
    for (const candidate of all) {
      const segment = candidate.node.segment!;
      if (segment.kind !== 'static') cached.others.push(candidate);
      else if (cached.statics.has(segment.name)) cached.statics.get(segment.name)!.push(candidate);
      else cached.statics.set(segment.name, [candidate]);
    }
    candidateCache.set(node, cached);
  }
  return cached;
}

function collect(node: RouteNode, groups: RouteNode[], out: Candidate[]): void {
  for (const child of node.children) {
    const kind = child.segment!.kind;
    if (kind === 'group') collect(child, [...groups, child], out);
    const rank = PRIORITY[kind];
    if (rank !== undefined) out.push({ path: [...groups, child], node: child, rank });
  }
}

/**
 * A page or route handler reachable from `node` without consuming a segment: its own, or one
 * inside its groups. The two compete as equals; the tree never has both at one URL.
 */
export function pageBranch(node: RouteNode): RouteNode[] | undefined {
  if (node.files.page || node.files.route) return [];
  for (const child of node.children) {
    if (child.segment?.kind !== 'group') continue;
    const inner = pageBranch(child);
    if (inner) return [child, ...inner];
  }
  return undefined;
}

export function matchRoute(root: RouteNode, segments: readonly string[]): RouteMatch | undefined {
  const found = matchBelow(root, segments, 0, {}) ?? matchBelow(root, segments, 0, {}, true);
  if (!found) return undefined;
  const match: RouteMatch = {
    pattern: rootPatternOf(found.nodes),
    params: found.params,
    branch: found.nodes,
    segments,
  };
  if (found.slotOnly) match.slotOnly = true;
  return match;
}

// A branch from the root is the one path down to its last node, so its pattern depends on that
// node alone: worked out on its first match, then looked up.
const rootPatterns = new WeakMap<RouteNode, string>();

function rootPatternOf(branch: RouteNode[]): string {
  const leaf = branch[branch.length - 1]!;
  let pattern = rootPatterns.get(leaf);
  if (pattern === undefined) rootPatterns.set(leaf, (pattern = patternOf(branch)));
  return pattern;
}

export interface Found {
  /** `node` first, then the nodes below it down to the page (or the layout, `slotOnly`). */
  nodes: RouteNode[];
  params: Params;
  slotOnly?: true;
}

/**
 * Matches `segments` from `index` on against what lies below `node`: the matcher's one step,
 * also used for slots (matched from their owner's depth) and interceptions. With `viaSlot`, a
 * node none of whose children match takes the URL if one of its slots does.
 */
export function matchBelow(
  node: RouteNode,
  segments: readonly string[],
  index: number,
  params: Params,
  viaSlot = false,
): Found | undefined {
  if (index === segments.length) {
    const page = pageBranch(node);
    if (page) return { nodes: [node, ...page], params };
  }
  const { statics, others } = candidatesOf(node);
  // Static first: a static route wins whenever its branch finds a page.
  if (index < segments.length) {
    for (const { path, node: child } of statics.get(segments[index]!) ?? NONE) {
      const found = matchBelow(child, segments, index + 1, params, viaSlot);
      if (found) return { ...found, nodes: [node, ...path.slice(0, -1), ...found.nodes] };
    }
  }
  for (const { path, node: child } of others) {
    const segment = child.segment!;
    let found: Found | undefined;
    switch (segment.kind) {
      case 'dynamic':
        if (index < segments.length) {
          const bound = { ...params, [segment.param]: segments[index]! };
          found = matchBelow(child, segments, index + 1, bound, viaSlot);
        }
        break;
      case 'catchAll':
      case 'optionalCatchAll':
        if (index < segments.length || segment.kind === 'optionalCatchAll') {
          const rest = segments.slice(index);
          found = matchBelow(child, segments, segments.length, { ...params, [segment.param]: rest }, viaSlot);
        }
        break;
    }
    if (found) return { ...found, nodes: [node, ...path.slice(0, -1), ...found.nodes] };
  }
  if (viaSlot) {
    for (const slot of node.children) {
      if (slot.segment?.kind === 'slot' && matchBelow(slot, segments, index, params)) {
        return { nodes: [node], params, slotOnly: true };
      }
    }
  }
  return undefined;
}
