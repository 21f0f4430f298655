/**
 * The demo app's Vite configuration. `switchyard dev|build` build the same configuration in
 * code (see server/vite/vite-config.ts) so that `--app` can point at another app directory.
 */
import { resolve } from 'node:path';
import { viteConfigFor } from './server/vite/vite-config';

export default viteConfigFor({ appDir: resolve(import.meta.dirname, 'src/app') });
