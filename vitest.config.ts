import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { docsPlugin } from './src/lib/docs-plugin.ts';

// Tests import the framework by its package name, as app code does, from its sources.
const alias = {
  client: fileURLToPath(new URL('./client/index.ts', import.meta.url)),
  server: fileURLToPath(new URL('./server/index.ts', import.meta.url)),
  testing: fileURLToPath(new URL('./server/testing/index.ts', import.meta.url)),
};

export default defineConfig({
  // The demo's docs module, as its Vite config has it: tests of the docs pages read the files.
  plugins: [docsPlugin()],
  resolve: {
    alias: [
      { find: /^switchyard-react\/server$/, replacement: alias.server },
      { find: /^switchyard-react\/testing$/, replacement: alias.testing },
      { find: /^switchyard-react$/, replacement: alias.client },
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'test/shared/**/*.test.{ts,tsx}',
            'test/server/**/*.test.{ts,tsx}',
            'test/client/**/*.test.{ts,tsx}',
            'test/repo/**/*.test.ts',
            'test/testing/**/*.test.ts',
            // The scaffold's own tests, which the docs' testing examples are.
            'bin/template/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
