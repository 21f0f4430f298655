import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // switchyard-react/testing imports the app's route files: through Vitest, so that its
    // TypeScript and JSX are compiled as the test files are.
    server: { deps: { inline: ['switchyard-react'] } },
  },
});
