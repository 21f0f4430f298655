/**
 * Builds the bare server as Switchyard builds an app: a hashed client bundle with a manifest,
 * and a server bundle whose dependencies (Express, React) stay in node_modules.
 */
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { build, type InlineConfig } from 'vite';
import { FRAMEWORK_ROOT } from '../../server/vite/vite-config';

export async function buildBare(outDir: string): Promise<void> {
  const base: InlineConfig = {
    root: FRAMEWORK_ROOT,
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    plugins: [react()],
  };
  await build({
    ...base,
    build: {
      outDir: join(outDir, 'client'),
      manifest: true,
      emptyOutDir: true,
      rollupOptions: { input: join(FRAMEWORK_ROOT, 'scripts/bench/bare/client.tsx') },
    },
  });
  await build({
    ...base,
    build: {
      outDir: join(outDir, 'server'),
      ssr: join(FRAMEWORK_ROOT, 'scripts/bench/bare/server.tsx'),
      emptyOutDir: true,
      rollupOptions: { output: { entryFileNames: 'server.js' } },
    },
  });
}
