/**
 * The router's effects that come from the route tree alone: which scripts a URL needs, whether
 * its branch has a loading state, and which interception a navigation meets. The browser builds
 * them from its module map (`browser-effects.ts`); `switchyard-react/testing` from the app
 * directory, so a test router matches URLs exactly as the browser does. Interceptions are
 * matched only in an app that has them: the browser loads their matcher then alone.
 */
import type { matchInterception } from '../shared/intercept.js';
import { decodePathname, matchRoute } from '../shared/match-route.js';
import { parseSegment } from '../shared/segment.js';
import { assembleRouteTree, COMPONENT_FILES, dirOf, type ComponentFile } from '../shared/route-tree.js';
import type { Modules, RouterEffects } from './router-types.js';

/** Whether an app intercepts: a route file below a folder marked `(.)`, `(..)` or `(...)`. */
export const intercepts = (files: readonly string[]): boolean =>
  files.some((file) => file.split('/').some((name) => parseSegment(name).kind === 'intercept'));

export function routeEffects(
  componentFiles: readonly string[],
  loadModules: (files: readonly string[]) => Promise<Modules>,
  intercept?: typeof matchInterception,
): Required<Pick<RouterEffects, 'preloadRoute' | 'hasLoadingState'>> & Pick<RouterEffects, 'interceptionOf'> {
  // The component files are enough to match a URL to its scripts. The build checked the tree
  // they make, and the server checks it again as it starts.
  const tree = assembleRouteTree([...componentFiles]);
  const routeOf = (pathname: string) => {
    const segments = decodePathname(pathname);
    return segments ? matchRoute(tree, segments) : undefined;
  };
  const interceptionOf = (match: typeof matchInterception) => (pathname: string, fromPathname: string) => {
    const target = decodePathname(pathname);
    const from = decodePathname(fromPathname);
    const fromMatch = from && matchRoute(tree, from);
    const found = target && fromMatch ? match(tree, target, fromMatch) : undefined;
    if (!found) return undefined;
    const { owner, slot } = found.interception;
    return [dirOf(owner), `@${slot}`].filter(Boolean).join('/');
  };
  return {
    preloadRoute(pathname) {
      const match = routeOf(pathname);
      if (!match) return Promise.resolve();
      const files = match.branch.flatMap((node, i) =>
        COMPONENT_FILES.filter(
          (role: ComponentFile) => role !== 'page' || i === match.branch.length - 1,
        ).flatMap((role) => node.files[role] ?? []),
      );
      return loadModules(files);
    },
    hasLoadingState: (pathname) => routeOf(pathname)?.branch.some((node) => node.files.loading) ?? false,
    ...(intercept ? { interceptionOf: interceptionOf(intercept) } : {}),
  };
}
