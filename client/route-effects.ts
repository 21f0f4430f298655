/**
 * The router's effects that come from the routes alone: which scripts a URL needs and whether
 * its branch has a loading state, from the route table the build flattened out of the route tree
 * (shared/route-table.ts), and, in an app that intercepts, which interception a navigation meets
 * (route-interception.ts, a chunk of its own). The browser builds them from the build's route
 * module (`browser-effects.ts`); `switchyard-react/testing` from the app directory, so a test
 * router matches URLs exactly as the browser does.
 */
import { matchTable, type RouteTableEntry } from '../shared/route-table.js';
import type { Modules, RouterEffects } from './router-types.js';

export function routeEffects(
  table: readonly RouteTableEntry[],
  loadModules: (files: readonly string[]) => Promise<Modules>,
  interceptionOf?: RouterEffects['interceptionOf'],
): Required<Pick<RouterEffects, 'preloadRoute' | 'hasLoadingState'>> & Pick<RouterEffects, 'interceptionOf'> {
  const entryOf = (pathname: string) => matchTable(table, pathname);
  return {
    preloadRoute(pathname) {
      const entry = entryOf(pathname);
      return entry ? loadModules(entry[1]) : Promise.resolve();
    },
    hasLoadingState: (pathname) => entryOf(pathname)?.[2] === 1,
    ...(interceptionOf ? { interceptionOf } : {}),
  };
}
