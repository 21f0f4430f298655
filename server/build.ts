/**
 * `switchyard build`: the client bundle (hashed assets and a manifest), then the server bundle
 * (the production entry with the app's route modules), then `build.json` with the build id.
 * Client assets are compressed here, once (brotli and gzip twins), never per request.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { build } from 'vite';
import { precompressAssets } from './vite/precompress';
import type { BuildInfo } from './production';
import { CLIENT_ENTRY, FRAMEWORK_ROOT, SERVER_ENTRY, viteConfigFor } from './vite/vite-config';

export interface BuildOptions {
  appDir: string;
  outDir: string;
}

export async function buildApp({ appDir, outDir }: BuildOptions): Promise<BuildInfo> {
  const config = viteConfigFor({ appDir });
  rmSync(outDir, { recursive: true, force: true });
  await build({
    ...config,
    mode: 'production',
    build: {
      outDir: join(outDir, 'client'),
      manifest: true,
      emptyOutDir: true,
      rollupOptions: { input: join(FRAMEWORK_ROOT, CLIENT_ENTRY) },
    },
  });
  await precompressAssets(join(outDir, 'client'));
  await build({
    ...config,
    mode: 'production',
    build: {
      outDir: join(outDir, 'server'),
      ssr: join(FRAMEWORK_ROOT, SERVER_ENTRY),
      emptyOutDir: true,
      rollupOptions: { output: { entryFileNames: 'production.js' } },
    },
  });
  const manifest = readFileSync(join(outDir, 'client/.vite/manifest.json'));
  const info: BuildInfo = {
    buildId: createHash('sha256').update(manifest).digest('hex').slice(0, 12),
    builtAt: new Date().toISOString(),
    appDir: relative(FRAMEWORK_ROOT, appDir).split('\\').join('/'),
    clientEntry: CLIENT_ENTRY,
  };
  writeFileSync(join(outDir, 'build.json'), JSON.stringify(info, null, 2));
  return info;
}
