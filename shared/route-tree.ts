/**
 * The route tree: plain data built from a list of file paths relative to the app directory.
 * No file system here, so the same code runs in the Vite plugin, the server and the tests.
 * A tree that breaks a rule of validate-route-tree.ts is never returned: `buildRouteTree` throws a
 * `RouteTreeError` that names every offending file. Code that runs on files the build already
 * checked assembles the tree without the rules (`assembleRouteTree`): the build's route table,
 * the testing kit, and in the browser the interception matcher and Sentry's tracing, each only
 * in the apps that need them.
 */
import { COMPONENT_FILES, HANDLER_FILE, SERVER_FILES, type RouteFile, type RouteNode } from './route-node.js';
import { formatSegment, parseSegment, urlNodesOf } from './segment.js';
import { validateRouteTree } from './validate-route-tree.js';

const COMPONENT_EXTENSIONS = ['.tsx', '.jsx', '.ts', '.js'];
const SERVER_EXTENSIONS = ['.ts', '.js'];

export {
  COMPONENT_FILES,
  HANDLER_FILE,
  SERVER_FILES,
  type ComponentFile,
  type RouteFile,
  type RouteNode,
  type ServerFile,
} from './route-node.js';

export class RouteTreeError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid app directory:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'RouteTreeError';
  }
}

/**
 * The role of a file name (`page.tsx` → `page`, `page.server.ts` → `page.server`, `route.ts` →
 * `route`), if it has one.
 */
export function classifyFile(base: string): RouteFile | undefined {
  for (const role of [...SERVER_FILES, HANDLER_FILE] as const) {
    if (SERVER_EXTENSIONS.some((ext) => base === role + ext)) return role;
  }
  for (const role of COMPONENT_FILES) {
    if (COMPONENT_EXTENSIONS.some((ext) => base === role + ext)) return role;
  }
  return undefined;
}

/** Builds the tree from paths relative to the app directory, `/`-separated (`photos/[id]/page.tsx`). */
export function buildRouteTree(files: readonly string[]): RouteNode {
  const problems: string[] = [];
  const root = assembleRouteTree(files, problems);
  problems.push(...validateRouteTree(root));
  if (problems.length > 0) throw new RouteTreeError(problems);
  return root;
}

/**
 * The tree of files already known valid, unchecked: the files of a build, which `buildRouteTree`
 * checked when it was made. Two files of one role in a folder go into `problems`; the later one
 * is dropped.
 */
export function assembleRouteTree(files: readonly string[], problems: string[] = []): RouteNode {
  const root: RouteNode = { name: '', segment: null, files: {}, children: [] };
  for (const file of [...files].sort()) {
    const parts = file.split('/');
    const role = classifyFile(parts.pop()!);
    if (!role) continue;
    let node = root;
    for (const part of parts) {
      let child = node.children.find((c) => c.name === part);
      if (!child) {
        child = { name: part, segment: parseSegment(part), files: {}, children: [] };
        node.children.push(child);
      }
      node = child;
    }
    const existing = node.files[role];
    if (existing) problems.push(`${existing} and ${file} are both the ${role} of one folder`);
    else node.files[role] = file;
  }
  return root;
}

/** Depth-first walk, parents before children; `branch` runs from the root to the node. */
export function walkTree(root: RouteNode, visit: (branch: readonly RouteNode[]) => void): void {
  const branch: RouteNode[] = [];
  const walk = (node: RouteNode): void => {
    branch.push(node);
    visit(branch);
    for (const child of node.children) walk(child);
    branch.pop();
  };
  walk(root);
}

/** The URL pattern of a branch: `/photos/[id]`; groups and slots leave no trace. */
export function patternOf(branch: readonly RouteNode[]): string {
  return `/${urlNodesOf(branch)
    .map((n) => formatSegment(n.segment!))
    .join('/')}`;
}

/** The folder path of a branch relative to the app directory (`(shop)/photos/[id]`). */
export function dirOf(branch: readonly RouteNode[]): string {
  return branch
    .slice(1)
    .map((n) => n.name)
    .join('/');
}
