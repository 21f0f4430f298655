import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = {
  switchyard: fileURLToPath(new URL('./client/index.ts', import.meta.url)),
  'switchyard/server': fileURLToPath(new URL('./server/index.ts', import.meta.url)),
};

export default defineConfig({
  resolve: {
    alias: [
      { find: /^switchyard\/server$/, replacement: alias['switchyard/server'] },
      { find: /^switchyard$/, replacement: alias.switchyard },
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
