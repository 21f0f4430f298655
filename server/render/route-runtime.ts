/**
 * What the server knows about the app, computed once at start-up (nothing runs per
 * request that could run once): the route tree, the module importers, and for each route file
 * the client chunks and styles it needs.
 */
import { buildRouteTree, type RouteNode } from '../../shared/route-tree.js';

export interface AssetList {
  scripts: readonly string[];
  styles: readonly string[];
}

export type ModuleImporter = () => Promise<unknown>;
/** Route modules by path relative to the app directory: `{ 'photos/[id]/page.tsx': () => import(…) }`. */
export type RouteModules = Readonly<Record<string, ModuleImporter>>;

export interface ClientAssets {
  /** Modules the document boots from, in order. */
  bootstrap: readonly string[];
  /** Chunks and styles every page needs (what the entry imports). */
  common: AssetList;
  /** For each route file, the chunks to modulepreload and the stylesheets it needs. */
  files: Readonly<Record<string, AssetList>>;
}

export interface RouteRuntime {
  tree: RouteNode;
  /** The module of a route file; each file is imported once. */
  load(file: string): Promise<Record<string, unknown>>;
  /**
   * The module of a route file once its import has finished, else `undefined`. Lets a request
   * use a module without a promise and an `await` per file: under `AsyncLocalStorage` each
   * promise costs a hook call, and a page asks for its modules several times.
   */
  ready(file: string): Record<string, unknown> | undefined;
  /** The union of the assets of the given route files, in order, without repeats. */
  assetsFor(files: Iterable<string>): { scripts: string[]; styles: string[] };
  bootstrap: readonly string[];
}

/**
 * @param cache Keep each module once imported. Off in development, where Vite's module graph
 *   decides when a module is stale.
 */
export function createRouteRuntime(modules: RouteModules, assets: ClientAssets, cache = true): RouteRuntime {
  const tree = buildRouteTree(Object.keys(modules));
  const loaded = new Map<string, Promise<Record<string, unknown>>>();
  const ready = new Map<string, Record<string, unknown>>();
  return {
    tree,
    bootstrap: assets.bootstrap,
    load(file) {
      let module = cache ? loaded.get(file) : undefined;
      if (!module) {
        const importer = modules[file];
        if (!importer) throw new Error(`switchyard: no module for ${file}`);
        module = importer() as Promise<Record<string, unknown>>;
        // A failed import is retried on the next request rather than cached as a failure.
        module.then(
          (value) => cache && ready.set(file, value),
          () => loaded.delete(file),
        );
        loaded.set(file, module);
      }
      return module;
    },
    ready(file) {
      return ready.get(file);
    },
    assetsFor(files) {
      const scripts = new Set<string>(assets.common.scripts);
      const styles = new Set<string>(assets.common.styles);
      for (const file of files) {
        const entry = assets.files[file];
        entry?.scripts.forEach((s) => scripts.add(s));
        entry?.styles.forEach((s) => styles.add(s));
      }
      return { scripts: [...scripts], styles: [...styles] };
    },
  };
}
