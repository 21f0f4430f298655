/**
 * What an app's folder must have before `switchyard dev`, `build` or `start` can run it, each
 * missing piece named in one line with the command that fixes it (never a stack trace from deep
 * inside Vite or React): React installed where the app can import it, and only one copy of it.
 */
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

/**
 * The folder a package resolves to from `fromDir`, as Node would import it; `undefined` when it
 * does not resolve.
 * @param {string} fromDir
 * @param {string} name
 */
function packageFrom(fromDir, name) {
  try {
    return dirname(realpathSync(createRequire(join(fromDir, 'noop.js')).resolve(`${name}/package.json`)));
  } catch {
    return undefined;
  }
}

/**
 * The problem with the app's React, as one message, or `undefined` when there is none.
 * @param {{ root: string, frameworkDir: string }} where the project root, and the folder of the
 *   framework's own modules (React is imported from there too)
 * @returns {string | undefined}
 */
export function reactProblem({ root, frameworkDir }) {
  const missing = ['react', 'react-dom'].filter((name) => packageFrom(root, name) === undefined);
  if (missing.length > 0) {
    return `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed in ${root}. Install ${missing.length > 1 ? 'them' : 'it'} with: npm install ${missing.join(' ')}`;
  }
  const apps = packageFrom(root, 'react');
  const frameworks = packageFrom(frameworkDir, 'react');
  if (frameworks !== undefined && frameworks !== apps) {
    return (
      `Two copies of React: the app's at ${apps}, and another at ${frameworks} that switchyard-react would load. ` +
      'Two copies break every hook. Install switchyard-react as a package (npm install switchyard-react, or a tarball from npm pack) rather than a link to a checkout, then run npm dedupe.'
    );
  }
  return undefined;
}

const LAYOUT_FILES = ['layout.tsx', 'layout.jsx', 'layout.ts', 'layout.js'];

/**
 * The message for an app directory with no root layout, or `undefined` when it has one.
 * @param {string} appDir
 * @param {string} cwd
 */
export function rootLayoutProblem(appDir, cwd) {
  if (LAYOUT_FILES.some((name) => existsSync(join(appDir, name)))) return undefined;
  const where = relative(cwd, appDir) || '.';
  return `${where}/layout.tsx is missing: the root layout renders <html> and <body> around every page. Create it (npx switchyard init <dir> writes one to copy).`;
}

/**
 * The builds in the project root, for `start` without `--out`: `dist` and any `dist-*` folder
 * that holds a server bundle.
 * @param {string} root
 * @returns {string[]} folder names
 */
export function buildsIn(root) {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && (entry.name === 'dist' || entry.name.startsWith('dist-')))
    .map((entry) => entry.name)
    .filter((name) => existsSync(join(root, name, 'server/production.js')))
    .sort();
}
