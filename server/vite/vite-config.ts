/**
 * The one Vite configuration, shared by `switchyard dev` and `switchyard build`, so development
 * and production resolve modules the same way. The project root (the folder with the app's
 * `package.json`) is Vite's root; the app's own `vite.config.*` there, if any, is loaded by Vite
 * and this configuration is merged over it (plugins added to the app's, settings here win).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import react from '@vitejs/plugin-react';
import type { InlineConfig } from 'vite';
import { compileHintsPlugin } from './compile-hints.js';
import { FRAMEWORK_ROOT, FROM_SOURCE, frameworkFile } from './framework-files.js';
import { switchyardPlugin } from './vite-plugin.js';

export { FRAMEWORK_ROOT, frameworkFile };

/** The name app code imports the framework by. */
export const PACKAGE_NAME = 'switchyard-react';

export const CLIENT_ENTRY = frameworkFile('client/entry.tsx');
export const SERVER_ENTRY = frameworkFile('server/production.ts');

/** Where React and its JSX runtimes come from: the app's own copy, pre-bundled once (they are CommonJS). */
const REACT_MODULES = [
  'react',
  'react-dom',
  'react-dom/client',
  'react/jsx-runtime',
  'react/jsx-dev-runtime',
];
const USER_CONFIG_FILES = ['ts', 'mts', 'js', 'mjs', 'cts', 'cjs'].map((ext) => `vite.config.${ext}`);

export interface ViteConfigInput {
  /** Absolute path of the project root: Vite's root, where the app's `package.json` is. */
  root: string;
  /** Absolute path of the app directory. */
  appDir: string;
}

/** The app's own Vite config file in the project root, if it has one. */
export function userConfigFile(root: string): string | undefined {
  return USER_CONFIG_FILES.map((name) => join(root, name)).find((file) => existsSync(file));
}

/** `public/` beside the app directory: its files are served at the root path. */
export function publicDirOf(appDir: string): string {
  return join(dirname(appDir), 'public');
}

export function viteConfigFor({ root, appDir }: ViteConfigInput): InlineConfig {
  const publicDir = publicDirOf(appDir);
  return {
    root,
    configFile: userConfigFile(root) ?? false,
    appType: 'custom',
    logLevel: 'warn',
    publicDir: existsSync(publicDir) ? publicDir : false,
    plugins: [
      react(),
      switchyardPlugin({ appDir, serverDir: join(FRAMEWORK_ROOT, 'server') }),
      compileHintsPlugin(),
    ],
    resolve: {
      // In the repository, app code reaches the framework's sources by the package name, as a
      // user app reaches the installed package.
      alias: FROM_SOURCE
        ? [
            { find: new RegExp(`^${PACKAGE_NAME}/server$`), replacement: frameworkFile('server/index.ts') },
            { find: new RegExp(`^${PACKAGE_NAME}$`), replacement: frameworkFile('client/index.ts') },
          ]
        : [],
      // One React, wherever an import of it comes from: two copies break every hook.
      dedupe: ['react', 'react-dom'],
    },
    optimizeDeps: {
      include: REACT_MODULES,
      // The framework imports the plugin's virtual modules, which only exist unbundled.
      exclude: [PACKAGE_NAME],
    },
    // The framework's server code runs in Vite's module graph with the app's: app code and the
    // renderer must share one instance of the router's React context.
    ssr: { noExternal: [PACKAGE_NAME] },
  };
}
