/**
 * The declaration file generated from the route tree: every URL pattern some page or route
 * handler answers, with its params and the URL shape a link to it may take; and for each page
 * and layout pattern, its params and the `page.server` / `layout.server` modules its data and
 * search come from. It augments `Register` of `switchyard-react`, so `Link`, `useRouter`,
 * `redirect`, `href`, `PageProps`, `LayoutProps`, `LoadArgs` and `useParams` check against the
 * app's own routes. Pure: the caller writes the text where it belongs.
 */
import { patternOf, walkTree, type RouteNode } from './route-tree.js';
import { routeSegmentOf, urlNodesOf } from './segment.js';

export interface RouteType {
  /** `/photos/[id]` */
  pattern: string;
  /** Each param with its TypeScript type, in URL order: `{ id: 'string' }`. */
  params: Readonly<Record<string, 'string' | 'string[]'>>;
  /** The URLs it answers as a template literal type body: `/photos/${string}`. */
  paths: readonly string[];
}

/**
 * The page files, or the layout files, of one URL pattern. Several may share it: a page and the
 * slot pages and intercepting pages shown at its URL; layouts in groups, slots and
 * interceptions. Their types are the union of each one's.
 */
export interface PropsType {
  pattern: string;
  params: Readonly<Record<string, 'string' | 'string[]'>>;
  /**
   * The `page.server` (or `layout.server`) beside each file, relative to the app directory;
   * `null` for a file with none. Without duplicates, sorted.
   */
  servers: readonly (string | null)[];
  /** A layout's slot names (`@modal` → `modal`), sorted; always empty for pages. */
  slots: readonly string[];
}

/**
 * The routes a link may go to, sorted by pattern. A branch through an interception adds no URL
 * of its own: it only shows, inside a slot, a URL that the real route also answers.
 */
export function routeTypesOf(root: RouteNode): RouteType[] {
  const byPattern = new Map<string, RouteType>();
  walkTree(root, (branch) => {
    const leaf = branch.at(-1)!;
    if (!leaf.files.page && !leaf.files.route) return;
    if (branch.some((n) => n.segment?.kind === 'intercept')) return;
    const pattern = patternOf(branch);
    if (!byPattern.has(pattern)) byPattern.set(pattern, routeTypeOf(pattern, branch));
  });
  return [...byPattern.values()].sort((a, b) => byText(a.pattern, b.pattern));
}

/** The page files of the app by URL pattern, interceptions and slots included, sorted by pattern. */
export function pageTypesOf(root: RouteNode): PropsType[] {
  return propsTypesOf(root, (node) => (node.files.page ? { server: node.files['page.server'] } : undefined));
}

/** The layouts of the app by the URL pattern of their folder (`/` for the root), sorted by pattern. */
export function layoutTypesOf(root: RouteNode): PropsType[] {
  return propsTypesOf(root, (node) =>
    node.files.layout || node.files['layout.server']
      ? {
          server: node.files['layout.server'],
          slots: node.children.flatMap((c) => (c.segment?.kind === 'slot' ? [c.segment.name] : [])),
        }
      : undefined,
  );
}

function propsTypesOf(
  root: RouteNode,
  fileOf: (node: RouteNode) => { server: string | undefined; slots?: readonly string[] } | undefined,
): PropsType[] {
  const byPattern = new Map<
    string,
    { params: PropsType['params']; servers: Set<string | null>; slots: Set<string> }
  >();
  walkTree(root, (branch) => {
    const file = fileOf(branch.at(-1)!);
    if (!file) return;
    const pattern = patternOf(branch);
    let entry = byPattern.get(pattern);
    if (!entry) {
      entry = { params: routeTypeOf(pattern, branch).params, servers: new Set(), slots: new Set() };
      byPattern.set(pattern, entry);
    }
    entry.servers.add(file.server ?? null);
    for (const slot of file.slots ?? []) entry.slots.add(slot);
  });
  return [...byPattern]
    .map(([pattern, { params, servers, slots }]) => ({
      pattern,
      params,
      servers: [...servers].sort(byText),
      slots: [...slots].sort(byText),
    }))
    .sort((a, b) => byText(a.pattern, b.pattern));
}

/** Code-unit order, the same on every machine (`null` first). */
function byText(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

function routeTypeOf(pattern: string, branch: readonly RouteNode[]): RouteType {
  const params: Record<string, 'string' | 'string[]'> = {};
  // Every prefix of the URL so far; an optional catch-all forks it into "absent" and "present".
  let paths = [''];
  for (const node of urlNodesOf(branch)) {
    const segment = routeSegmentOf(node.segment!);
    switch (segment.kind) {
      case 'static':
        paths = paths.map((p) => `${p}/${escapeTemplate(segment.name)}`);
        break;
      case 'dynamic':
        params[segment.param] = 'string';
        paths = paths.map((p) => `${p}/\${string}`);
        break;
      case 'catchAll':
        params[segment.param] = 'string[]';
        paths = paths.map((p) => `${p}/\${string}`);
        break;
      case 'optionalCatchAll':
        params[segment.param] = 'string[]';
        paths = paths.flatMap((p) => [p, `${p}/\${string}`]);
        break;
      default:
        break;
    }
  }
  return { pattern, params, paths: paths.map((p) => p || '/') };
}

/** A static segment inside a template literal type: backquotes, `${` and backslashes escaped. */
function escapeTemplate(text: string): string {
  return text.replace(/[`\\]|\$\{/g, (m) => `\\${m}`);
}

export interface AppTypes {
  routes: readonly RouteType[];
  pages: readonly PropsType[];
  layouts: readonly PropsType[];
}

/** Everything the declaration file says of an app. */
export function appTypesOf(root: RouteNode): AppTypes {
  return { routes: routeTypesOf(root), pages: pageTypesOf(root), layouts: layoutTypesOf(root) };
}

/**
 * The text of `routes.d.ts` for these types. `appPath` is the app directory relative to the
 * folder of the declaration file (`../../../src/app`): a server module is reached as
 * `typeof import('<appPath>/photos/[id]/page.server.js')`, which resolves to the `.ts` file
 * under both `bundler` and `nodenext` resolution. Each entry is plain data: the helpers of
 * `switchyard-react` do one lookup and one conditional type per use.
 */
export function formatRouteTypes({ routes, pages, layouts }: AppTypes, appPath: string): string {
  const lines = [
    '// Generated by Switchyard from the app directory; do not edit. `switchyard typegen` rewrites it.',
    "import 'switchyard-react';",
    '',
    "declare module 'switchyard-react' {",
    '  interface Register {',
    '    routes: {',
  ];
  for (const route of routes) {
    const paths = route.paths.map((p) => `\`${p}\``).join(' | ');
    lines.push(
      `      ${JSON.stringify(route.pattern)}: { params: ${formatParams(route.params)}; path: ${paths} };`,
    );
  }
  lines.push('    };', '    urls: {');
  for (const [head, paths] of urlsByHead(routes)) {
    lines.push(`      ${JSON.stringify(head)}: ${paths.map((p) => `\`${p}\``).join(' | ') || 'never'};`);
  }
  lines.push('    };', '    pages: {');
  for (const page of pages) {
    lines.push(
      `      ${JSON.stringify(page.pattern)}: { params: ${formatParams(page.params)}; server: ${formatServers(page.servers, appPath)} };`,
    );
  }
  lines.push('    };', '    layouts: {');
  for (const layout of layouts) {
    const slots = layout.slots.map((s) => JSON.stringify(s)).join(' | ') || 'never';
    lines.push(
      `      ${JSON.stringify(layout.pattern)}: { params: ${formatParams(layout.params)}; server: ${formatServers(layout.servers, appPath)}; slots: ${slots} };`,
    );
  }
  lines.push('    };', '  }', '}', '');
  return lines.join('\n');
}

/**
 * The key of the paths whose first segment is a param: a static segment never starts with `[`,
 * so no URL's first segment is this key.
 */
export const DYNAMIC_HEAD = '[dynamic]';

/**
 * The URL paths of the routes grouped by their first segment (`s1` for `/s1/new`, `''` for `/`),
 * so that a link is compared with the few paths under its own first segment, never with all of
 * the app's. The paths whose first segment is a param may follow any first segment: they are in
 * every group, and alone under `DYNAMIC_HEAD` for a first segment no static path has.
 */
function urlsByHead(routes: readonly RouteType[]): Map<string, string[]> {
  const dynamic: string[] = [];
  const byHead = new Map<string, string[]>();
  for (const path of routes.flatMap((r) => r.paths)) {
    const head = /^\/([^/]*)/.exec(path)![1]!;
    if (head.startsWith('${')) dynamic.push(path);
    else if (byHead.has(head)) byHead.get(head)!.push(path);
    else byHead.set(head, [path]);
  }
  const groups = new Map(
    [...byHead].map(([head, paths]) => [unescapeTemplate(head), [...paths, ...dynamic]]),
  );
  groups.set(DYNAMIC_HEAD, dynamic);
  return groups;
}

/** The text of a static segment as a template literal type wrote it. */
function unescapeTemplate(text: string): string {
  return text.replace(/\\([`\\]|\$\{)/g, '$1');
}

function formatParams(params: PropsType['params']): string {
  const entries = Object.entries(params).map(([name, type]) => `${JSON.stringify(name)}: ${type}`);
  return entries.length > 0 ? `{ ${entries.join('; ')} }` : '{}';
}

/** `typeof import('…/page.server.js')` for each server module; `undefined` for a file with none. */
function formatServers(servers: PropsType['servers'], appPath: string): string {
  return servers
    .map((file) =>
      file === null
        ? 'undefined'
        : `typeof import(${JSON.stringify(`${appPath}/${file.replace(/\.ts$/, '.js')}`)})`,
    )
    .join(' | ');
}
