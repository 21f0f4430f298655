// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'dist-*', '**/.switchyard', 'data', 'lib'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['bin/**/*.js', 'scripts/**/*.js', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // The core is pure TypeScript: no React, no DOM, no Node (STYLE.md "The house").
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react-dom', 'react/*', 'react-dom/*', 'node:*'],
              message: 'shared/ is pure TypeScript: no React, no DOM, no Node.',
            },
          ],
        },
      ],
    },
  },
  {
    // App code uses the framework through its public names only.
    files: ['src/**/*.{ts,tsx}', 'test/fixtures/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/client/*', '**/server/*', '**/shared/*'],
              message: "Import the framework as 'switchyard-react' or 'switchyard-react/server'.",
            },
          ],
        },
      ],
    },
  },
);
