/**
 * `switchyard build`: the client bundle (hashed assets and a manifest), then the server bundle
 * (the production entry with the app's route modules), then `build.json` with the build id.
 * Client assets are compressed here, once (brotli and gzip twins), never per request.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'vite';
import { precompressAssets } from './vite/precompress.js';
import type { BuildInfo } from './production.js';
import { CLIENT_ENTRY, SERVER_ENTRY, viteConfigFor } from './vite/vite-config.js';

export interface BuildOptions {
  /** Absolute path of the project root (Vite's root); the working directory by default. */
  root?: string;
  appDir: string;
  outDir: string;
}

export async function buildApp({ root = process.cwd(), appDir, outDir }: BuildOptions): Promise<BuildInfo> {
  const config = viteConfigFor({ root, appDir });
  rmSync(outDir, { recursive: true, force: true });
  await build({
    ...config,
    mode: 'production',
    build: {
      outDir: join(outDir, 'client'),
      manifest: true,
      emptyOutDir: true,
      rollupOptions: { input: CLIENT_ENTRY },
    },
  });
  await precompressAssets(join(outDir, 'client'));
  await build({
    ...config,
    mode: 'production',
    build: {
      outDir: join(outDir, 'server'),
      ssr: SERVER_ENTRY,
      emptyOutDir: true,
      // public/ goes to the client folder only.
      copyPublicDir: false,
      rollupOptions: { output: { entryFileNames: 'production.js' } },
    },
  });
  const manifest = readFileSync(join(outDir, 'client/.vite/manifest.json'));
  // The manifest names files by their path under the root.
  const fromRoot = (path: string) => relative(root, path).split('\\').join('/');
  const info: BuildInfo = {
    buildId: createHash('sha256').update(manifest).digest('hex').slice(0, 12),
    builtAt: new Date().toISOString(),
    appDir: fromRoot(appDir),
    clientEntry: fromRoot(CLIENT_ENTRY),
  };
  writeFileSync(join(outDir, 'build.json'), JSON.stringify(info, null, 2));
  return info;
}
