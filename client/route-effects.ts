/**
 * The router's effects that come from the routes alone: which scripts a URL needs and whether
 * its branch has a loading state, from the route table the build flattened out of the route tree
 * (shared/route-table.ts). The browser builds them from the build's route module
 * (`browser-effects.ts`); `switchyard-react/testing` from the app directory, so a test router
 * matches URLs exactly as the browser does.
 */
import { matchTable, type RouteTableEntry } from '../shared/route-table.js';
import type { Modules, RouterEffects } from './router-types.js';

export function routeEffects(
  table: readonly RouteTableEntry[],
  loadModules: (files: readonly string[]) => Promise<Modules>,
): Required<Pick<RouterEffects, 'preloadRoute' | 'hasLoadingState'>> {
  const entryOf = (pathname: string) => matchTable(table, pathname);
  return {
    preloadRoute(pathname) {
      const entry = entryOf(pathname);
      return entry ? loadModules(entry[1]) : Promise.resolve();
    },
    hasLoadingState: (pathname) => entryOf(pathname)?.[2] === 1,
  };
}
