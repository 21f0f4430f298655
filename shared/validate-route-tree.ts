/**
 * The rules that make a tree ambiguous or impossible. Each problem is one sentence naming each
 * file involved once and the rule it breaks, so that a failed start-up tells the author exactly
 * what to change.
 */
import { folderNameProblem } from './folder-name.js';
import type { RouteNode } from './route-node.js';
import { formatSegment, isUrlSegment, paramOf, routeSegmentOf, urlNodesOf, type Segment } from './segment.js';

/** Returns every problem of the tree; an empty list means it is valid. */
export function validateRouteTree(root: RouteNode): string[] {
  const problems: string[] = [];
  const pages = new Map<string, string>();
  const visit = (node: RouteNode, ancestors: RouteNode[]): void => {
    const branch = [...ancestors, node];
    const nameProblem = folderNameProblem(node.name);
    if (node.segment && nameProblem) problems.push(`${nameProblem}: ${describe(node)}`);
    checkLevel(node, problems);
    checkRepeatedParam(branch, problems);
    checkCatchAllIsLast(branch, problems);
    checkInterceptDepth(node, ancestors, problems);
    checkInterceptPlace(node, ancestors, problems);
    if (node.files.middleware && node.segment) {
      problems.push(
        `${node.files.middleware}: middleware runs before every request, so it lives at the root of the app directory`,
      );
    }
    checkHandlerPlace(node, branch, problems);
    // A page or a route handler: whichever answers the URL, no other may answer it too.
    const leaf = node.files.page ?? node.files.route;
    if (leaf && !branch.some(isParallel)) {
      for (const key of urlKeysOf(branch)) {
        const other = pages.get(key);
        if (other) problems.push(`${other} and ${leaf} both resolve to the URL ${key}`);
        else pages.set(key, leaf);
      }
    }
    for (const child of node.children) visit(child, branch);
  };
  visit(root, []);
  return problems;
}

/** Slots and interceptions render beside the main route; their pages may share its URLs. */
function isParallel(node: RouteNode): boolean {
  return node.segment?.kind === 'slot' || node.segment?.kind === 'intercept';
}

/** Children that sit at this URL level: groups are looked through, slots and interceptions set aside. */
function levelChildren(node: RouteNode): RouteNode[] {
  return node.children.flatMap((child) => {
    if (child.segment?.kind === 'group') return levelChildren(child);
    return isParallel(child) ? [] : [child];
  });
}

function checkLevel(node: RouteNode, problems: string[]): void {
  if (node.segment?.kind === 'group') return; // its children are checked with its parent's level
  const children = levelChildren(node);
  const ofKind = (kind: Segment['kind']) => children.filter((c) => c.segment?.kind === kind);
  for (const kind of ['dynamic', 'catchAll', 'optionalCatchAll'] as const) {
    const same = ofKind(kind);
    const names = new Set(same.map((c) => paramOf(c.segment!)));
    if (names.size > 1) {
      problems.push(`different slug names at one level: ${same.map(describe).join(', ')}`);
    }
  }
  const required = ofKind('catchAll');
  const optional = ofKind('optionalCatchAll');
  if (required.length > 0 && optional.length > 0) {
    problems.push(
      `a required and an optional catch-all at one level: ${[...required, ...optional].map(describe).join(', ')}`,
    );
  }
}

/** Params are named per URL, and an interception's URL starts afresh (see `urlNodesOf`). */
function checkRepeatedParam(branch: RouteNode[], problems: string[]): void {
  const node = branch.at(-1)!;
  const param = node.segment && paramOf(node.segment);
  const url = urlNodesOf(branch);
  if (!param || url.at(-1) !== node) return;
  if (url.slice(0, -1).some((n) => paramOf(n.segment!) === param)) {
    problems.push(
      `the param name "${param}" appears twice in the URL ${spell(url)}; give each param its own name: ${describe(node)}`,
    );
  }
}

function checkCatchAllIsLast(branch: RouteNode[], problems: string[]): void {
  const node = branch.at(-1)!;
  const kind = node.segment && routeSegmentOf(node.segment).kind;
  if (kind !== 'catchAll' && kind !== 'optionalCatchAll') return;
  const below = levelChildren(node).filter((c) => c.segment && isUrlSegment(c.segment));
  for (const child of below) {
    problems.push(
      `a catch-all must end its URL, but ${spell(urlNodesOf([...branch, child]))} goes on past it: ${describe(child)}`,
    );
  }
}

/** A URL pattern as the author wrote it: `/u/[id]/posts/[id]`. */
function spell(url: readonly RouteNode[]): string {
  return `/${url.map((n) => formatSegment(n.segment!)).join('/')}`;
}

const MARKER_DEPTH = { '(.)': 0, '(..)': 1, '(..)(..)': 2, '(...)': 0 } as const;

function checkInterceptDepth(node: RouteNode, ancestors: RouteNode[], problems: string[]): void {
  if (node.segment?.kind !== 'intercept') return;
  const depth = ancestors.filter((a) => a.segment && isUrlSegment(a.segment)).length;
  const needed = MARKER_DEPTH[node.segment.marker];
  if (depth < needed) {
    problems.push(
      `${node.segment.marker} reaches above the app root in ${describe(node)}: it needs ${needed} route segment(s) above it, there are ${depth}`,
    );
  }
}

/** Where a marker may stand: before a route segment, inside a slot, not inside another interception. */
function checkInterceptPlace(node: RouteNode, ancestors: RouteNode[], problems: string[]): void {
  const segment = node.segment;
  if (segment?.kind !== 'intercept') return;
  if (!isUrlSegment(segment.segment)) {
    problems.push(
      `${segment.marker} must stand before a route segment, not a group or a slot: ${describe(node)}`,
    );
  } else if (ancestors.some((a) => a.segment?.kind === 'intercept')) {
    problems.push(`an interception inside another interception: ${describe(node)}`);
  } else if (!ancestors.some((a) => a.segment?.kind === 'slot')) {
    problems.push(
      `an interception must be inside a @slot folder, which says where it shows: ${describe(node)}`,
    );
  }
}

/**
 * A route handler answers its URL instead of a page, for every method: beside a page the URL
 * would have two answers, and a slot or an interception renders beside a page, which a handler
 * is not.
 */
function checkHandlerPlace(node: RouteNode, branch: RouteNode[], problems: string[]): void {
  const route = node.files.route;
  if (!route) return;
  if (node.files.page) {
    problems.push(
      `${node.files.page} and ${route} are in one folder, but a URL is answered by a page or by a route handler, not both; move one of them to another folder`,
    );
  }
  const parallel = branch.find(isParallel);
  if (parallel) {
    problems.push(
      `a route handler cannot be inside a @slot or an interception (${parallel.name}), which only render beside a page: ${route}`,
    );
  }
}

/**
 * The URLs a page answers, with param names erased (`/photos/[]`), so that two spellings of
 * one URL collide. An optional catch-all page also answers its parent's URL.
 */
function urlKeysOf(branch: RouteNode[]): string[] {
  const parts = branch.flatMap((n) => (n.segment && isUrlSegment(n.segment) ? [erase(n.segment)] : []));
  const keys = [`/${parts.join('/')}`];
  if (branch.at(-1)?.segment?.kind === 'optionalCatchAll') keys.push(`/${parts.slice(0, -1).join('/')}`);
  return keys;
}

function erase(segment: Segment): string {
  if (segment.kind === 'intercept') return erase(segment.segment);
  if (segment.kind === 'dynamic') return '[]';
  if (segment.kind === 'catchAll') return '[...]';
  if (segment.kind === 'optionalCatchAll') return '[[...]]';
  return formatSegment(segment);
}

/** A node named by a file in it (or below it), which is what an author can find and fix. */
function describe(node: RouteNode): string {
  const own = Object.values(node.files)[0];
  if (own) return own;
  for (const child of node.children) {
    const found = describe(child);
    if (found) return found;
  }
  return node.name;
}
