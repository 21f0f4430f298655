/**
 * The one Vite configuration, shared by `switchyard dev` and `switchyard build` (and the root
 * `vite.config.ts`), so development and production resolve modules the same way.
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { InlineConfig } from 'vite';
import { switchyardPlugin } from './vite-plugin';

/** The repository root: the framework's own folders live here. */
export const FRAMEWORK_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/[\\/]$/, '');
export const CLIENT_ENTRY = 'client/entry.tsx';
export const SERVER_ENTRY = 'server/production.ts';

export interface ViteConfigInput {
  /** Absolute path of the app directory. */
  appDir: string;
}

export function viteConfigFor({ appDir }: ViteConfigInput): InlineConfig {
  return {
    root: FRAMEWORK_ROOT,
    configFile: false,
    appType: 'custom',
    logLevel: 'warn',
    plugins: [react(), switchyardPlugin({ appDir, serverDir: `${FRAMEWORK_ROOT}/server` })],
    resolve: {
      // App code imports the framework by its package name, as a user app would.
      alias: [
        { find: /^switchyard\/server$/, replacement: `${FRAMEWORK_ROOT}/server/index.ts` },
        { find: /^switchyard$/, replacement: `${FRAMEWORK_ROOT}/client/index.ts` },
      ],
    },
  };
}
