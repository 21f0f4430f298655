/**
 * Reads Vite's client manifest into the asset lists the document needs, once at start-up:
 * for each route file its chunk, the chunks that chunk imports statically, and their CSS.
 */
import type { ClientAssets } from './route-runtime.js';

export interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
export type Manifest = Record<string, ManifestChunk>;

/**
 * @param manifest Vite's `.vite/manifest.json`, keyed by path relative to the Vite root.
 * @param appDirFromRoot The app directory relative to the Vite root (`src/app`).
 * @param entryKey The client entry relative to the Vite root.
 */
export function assetsFromManifest(
  manifest: Manifest,
  appDirFromRoot: string,
  routeFiles: readonly string[],
  entryKey: string,
  base = '/',
): ClientAssets {
  const collect = (key: string) => {
    const scripts = new Set<string>();
    const styles = new Set<string>();
    const visit = (k: string) => {
      const chunk = manifest[k];
      if (!chunk || scripts.has(base + chunk.file)) return;
      scripts.add(base + chunk.file);
      chunk.css?.forEach((css) => styles.add(base + css));
      chunk.imports?.forEach(visit);
    };
    visit(key);
    return { scripts: [...scripts], styles: [...styles] };
  };
  const entry = manifest[entryKey];
  if (!entry)
    throw new Error(`the client manifest has no entry for ${entryKey}: rebuild with \`switchyard build\``);
  const entryAssets = collect(entryKey);
  const files: Record<string, { scripts: string[]; styles: string[] }> = {};
  for (const file of routeFiles) {
    const key = `${appDirFromRoot}/${file}`;
    if (manifest[key]) files[file] = collect(key);
  }
  // The entry's own static imports (React, the router) preload with every page.
  const common = { scripts: entryAssets.scripts.slice(1), styles: entryAssets.styles };
  return { bootstrap: [base + entry.file], common, files };
}
