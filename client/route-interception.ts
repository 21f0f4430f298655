/**
 * Which interception a soft navigation meets, for an app with intercepting routes: the browser
 * loads this chunk (with the route tree, its matcher and the interception rules) only in such
 * an app, which its route module says (`intercepts`). The key names the slot that shows the
 * intercepted page (`(feed)/@modal`), so the prefetch cache keeps it apart from the full page.
 */
import { matchInterception } from '../shared/intercept.js';
import { decodePathname, matchRoute } from '../shared/match-route.js';
import { assembleRouteTree, dirOf } from '../shared/route-tree.js';
import type { RouterEffects } from './router-types.js';

export function interceptionOf(
  componentFiles: readonly string[],
): NonNullable<RouterEffects['interceptionOf']> {
  // The component files are enough: the build checked the tree they make, and the server
  // checks it again as it starts.
  const tree = assembleRouteTree([...componentFiles]);
  return (pathname, fromPathname) => {
    const target = decodePathname(pathname);
    const from = decodePathname(fromPathname);
    const fromMatch = from && matchRoute(tree, from);
    const found = target && fromMatch ? matchInterception(tree, target, fromMatch) : undefined;
    if (!found) return undefined;
    const { owner, slot } = found.interception;
    return [dirOf(owner), `@${slot}`].filter(Boolean).join('/');
  };
}
