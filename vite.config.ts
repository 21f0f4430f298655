/**
 * The demo's own Vite settings. `switchyard dev` and `switchyard build` load this file, as they
 * load any app's `vite.config.*` in its project root, and merge the framework's configuration
 * over it (see server/vite/vite-config.ts): plugins here are added to the framework's.
 */
import { defineConfig } from 'vite';
import { docsPlugin } from './src/lib/docs-plugin.ts';

export default defineConfig({
  // The docs pages, made once by the build (highlighted) and per request in development.
  plugins: [docsPlugin()],
  server: {
    // The demo's SQLite database and the bench's output change while the dev server runs; a
    // change there is never a source change to watch.
    watch: { ignored: ['**/.data/**', '**/bench-results/**', '**/dist/**', '**/dist-*/**'] },
  },
});
