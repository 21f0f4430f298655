/**
 * Intercepted routes: a folder such as `@modal/(.)photos` answers the URLs of another route
 * (`/photos/[id]`) inside a slot, but only for a soft navigation that starts inside the slot
 * owner's scope — the layout that renders the slot — and goes to another pathname. A document
 * request never intercepts. Interceptors that match one URL compete as routes do.
 *
 * Markers count route segments, never groups or slots: `(.)` the level of the slot's owner,
 * `(..)` one above, `(..)(..)` two above, `(...)` the app root.
 */
import { matchBelow, PRIORITY, type Params, type RouteMatch } from './match-route.js';
import type { RouteNode } from './route-tree.js';
import { routeSegmentOf, urlNodesOf } from './segment.js';

export interface Interception {
  /** Root to the node whose layout renders the slot (groups included). */
  owner: RouteNode[];
  /** The slot's name (`modal` for `@modal`). */
  slot: string;
  /** Nodes from the slot folder down to the intercepting folder (`@modal`, `(.)photos`). */
  path: RouteNode[];
  /** The URL-segment nodes whose values the intercepted URL starts with (after the marker). */
  prefix: RouteNode[];
  /** A parent made for matching: its one child is the intercepting folder read as the segment it stands for. */
  stand: RouteNode;
}

export interface InterceptMatch {
  interception: Interception;
  /** From the slot folder to the page, as real nodes of the tree. */
  branch: RouteNode[];
  params: Params;
}

const cache = new WeakMap<RouteNode, Interception[]>();

/** Every interception of a tree, found once per tree. */
export function interceptionsOf(root: RouteNode): Interception[] {
  let found = cache.get(root);
  if (!found) {
    found = [];
    collect(root, [root], found);
    cache.set(root, found);
  }
  return found;
}

function collect(node: RouteNode, branch: RouteNode[], out: Interception[]): void {
  for (const child of node.children) {
    const path = [...branch, child];
    const segment = child.segment!;
    if (segment.kind === 'intercept') {
      const slotAt = path.findLastIndex((n) => n.segment?.kind === 'slot');
      // Validation refuses a marker outside a slot; such a node is simply never intercepting.
      if (slotAt < 0) continue;
      out.push({
        owner: path.slice(0, slotAt),
        slot: (path[slotAt]!.segment as { name: string }).name,
        path: path.slice(slotAt),
        prefix: urlNodesOf(path).slice(0, -1),
        stand: { name: '', segment: null, files: {}, children: [{ ...child, segment: segment.segment }] },
      });
      continue; // no interception inside an interception (validation says so)
    }
    collect(child, path, out);
  }
}

/**
 * The interception a soft navigation to `target` meets when it starts from the page `from`:
 * among the interceptions whose owner is on `from`'s branch and whose route matches the
 * target, the one whose route would win as a plain route — static before `[param]` before
 * `[...catchAll]` before `[[...optional]]`, compared segment by segment from the root — and
 * the first in tree order of equals. `undefined` means the plain route renders: always so for
 * a document request (no `from`) and for a target with `from`'s own pathname, which keeps
 * the page and only changes its search params.
 */
export function matchInterception(
  root: RouteNode,
  target: readonly string[],
  from: RouteMatch | undefined,
): InterceptMatch | undefined {
  if (!from || isSamePathname(target, from.segments)) return undefined;
  let best: { match: InterceptMatch; rank: number[] } | undefined;
  for (const interception of interceptionsOf(root)) {
    if (!from.branch.includes(interception.owner.at(-1)!)) continue;
    const params = matchPrefix(interception.prefix, target);
    if (!params) continue;
    const found = matchBelow(interception.stand, target, interception.prefix.length, params);
    if (!found) continue;
    // found.nodes is [stand, its child, …below]: put the real intercepting folder back.
    const below = found.nodes.slice(2);
    const rank = rankOf([...interception.prefix, ...found.nodes.slice(1)]);
    if (best && !isHigher(rank, best.rank)) continue;
    best = {
      match: { interception, branch: [...interception.path, ...below], params: found.params },
      rank,
    };
  }
  return best?.match;
}

function isSamePathname(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}

/** The priority of each URL segment of a route, root first. */
function rankOf(nodes: readonly RouteNode[]): number[] {
  return nodes.flatMap((n) => {
    const rank = n.segment ? PRIORITY[routeSegmentOf(n.segment).kind] : undefined;
    return rank === undefined ? [] : [rank];
  });
}

/** Does a route ranked `a` win over one ranked `b`? The first segment that differs decides. */
function isHigher(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]!;
  }
  return false;
}

/** Binds the URL's first segments to the prefix nodes; `undefined` if they differ. */
function matchPrefix(prefix: readonly RouteNode[], target: readonly string[]): Params | undefined {
  if (target.length < prefix.length) return undefined;
  const params: Params = {};
  for (const [i, node] of prefix.entries()) {
    const segment = node.segment!;
    const value = target[i]!;
    if (segment.kind === 'static' && segment.name !== value) return undefined;
    if (segment.kind === 'dynamic') params[segment.param] = value;
    // A catch-all is always last on its branch, so it is never part of a prefix with a slot below.
    if (segment.kind === 'catchAll' || segment.kind === 'optionalCatchAll') return undefined;
  }
  return params;
}
