/**
 * The app's `public/` folder checked against its routes, when a build or the dev server starts.
 * A public file is served before any route is matched (by the static handler in production, by
 * Vite's middleware in development), so a route that answers its URL would never render there.
 *
 * The rule, one URL at a time, with the router's own matcher: a public file is an error when a
 * page (or a route handler) answers its URL through static segments only
 * (`app/robots.txt/page.tsx` against `public/robots.txt`; groups are looked through). A page
 * that would answer it through a param (`[slug]`, `[...path]`, `[[...path]]`), or a layout that
 * answers it through a slot only, is a fallback: it yields to the file and still answers every
 * other URL, as in Next.js.
 * `/assets/` is the build's: its files are hashed and browsers keep them for a year.
 */
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { matchRoute } from '../../shared/match-route.js';
import { RouteTreeError, type RouteNode } from '../../shared/route-tree.js';
import { HASHED_DIR, indexStaticFiles } from '../http/static-files.js';

export interface ShadowedRoute {
  /** The URL both answer, decoded: `/robots.txt`. */
  url: string;
  /** The page file (or route handler), relative to the app directory. */
  page: string;
}

/** The pages that public files at `urls` would hide, by the rule above. */
export function shadowedRoutes(tree: RouteNode, urls: Iterable<string>): ShadowedRoute[] {
  const shadowed: ShadowedRoute[] = [];
  for (const url of urls) {
    const match = matchRoute(
      tree,
      url.split('/').filter((segment) => segment !== ''),
    );
    // A match binds no param exactly when every segment it went through is static.
    if (!match || match.slotOnly || Object.keys(match.params).length > 0) continue;
    const leaf = match.branch.at(-1)!.files;
    shadowed.push({ url, page: (leaf.page ?? leaf.route)! });
  }
  return shadowed;
}

/**
 * Throws a `RouteTreeError` naming both files (relative to the working directory) of every
 * public file that hides a page or sits in `/assets/`. No folder (`publicDir` empty) is fine.
 */
export function checkPublicFiles(tree: RouteNode, appDir: string, publicDir: string): void {
  if (!publicDir || !existsSync(publicDir)) return;
  const urls = [...indexStaticFiles(publicDir).keys()].sort();
  const describe = (path: string) => relative(process.cwd(), path).split('\\').join('/');
  const problems = shadowedRoutes(tree, urls).map(
    ({ url, page }) =>
      `${describe(join(publicDir, url))} conflicts with ${describe(join(appDir, page))}: both answer ${url}. Rename or remove one.`,
  );
  for (const url of urls.filter((url) => url.startsWith(HASHED_DIR))) {
    problems.push(
      `${describe(join(publicDir, url))} is in ${HASHED_DIR}, the build's folder of hashed files that browsers keep for a year. Move it to another folder.`,
    );
  }
  if (problems.length > 0) throw new RouteTreeError(problems);
}
