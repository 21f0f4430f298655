/**
 * `switchyard init <dir>`: writes a new app into a folder: the files of `template/` beside this
 * module, and a `package.json` whose versions come from the framework's own, so an app starts on
 * the React and TypeScript this release was tested with. Everything is checked before anything
 * is written: a refusal leaves the disk as it was.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TEMPLATE_DIR = fileURLToPath(new URL('./template', import.meta.url));
const FRAMEWORK_PACKAGE = new URL('../package.json', import.meta.url);

/** npm leaves every `.gitignore` out of a package: the template keeps it under another name. */
const RENAMED = new Map([['gitignore', '.gitignore']]);

/** The app's development tools, at the framework's own versions. */
const DEV_TOOLS = ['typescript', '@types/react', '@types/react-dom', '@types/node', 'vitest'];

/**
 * @typedef {{ version: string, engines?: Record<string, string>, peerDependencies: Record<string, string>, devDependencies: Record<string, string> }} FrameworkPackage
 */

/**
 * Writes a new app into `target`, which must not exist or be empty (a lone `.git` counts as
 * empty), unless `force`; then prints what to run next. A problem is an `Error` whose message
 * says what to change.
 * @example initApp({ target: '/home/me/my-app', force: false, cwd: '/home/me' })
 * @param {{ target: string, force: boolean, cwd: string }} options absolute paths: the folder to
 *   write, and the one the command ran in (messages name the target relative to it)
 */
export function initApp({ target, force, cwd }) {
  /** How messages name a path: relative to where the command ran, as a shell word. */
  const name = (/** @type {string} */ path) => shellWord(relative(cwd, path) || path);
  /** @type {FrameworkPackage} */
  const framework = JSON.parse(readFileSync(FRAMEWORK_PACKAGE, 'utf8'));
  const app = appPackage(basename(target), framework);
  const copies = templateFiles(TEMPLATE_DIR).map((from) => ({ from, to: RENAMED.get(from) ?? from }));
  const writes = [...copies.map(({ to }) => to), 'package.json'];

  const problem = targetProblem(target, force, name) ?? collision(target, writes, name);
  if (problem) throw new Error(problem);

  try {
    for (const { from, to } of copies) {
      mkdirSync(dirname(join(target, to)), { recursive: true });
      copyFileSync(join(TEMPLATE_DIR, from), join(target, to));
    }
    writeFileSync(join(target, 'package.json'), `${JSON.stringify(app, null, 2)}\n`);
  } catch (error) {
    // A folder we may not write into, a full disk: the checks above cannot see those coming.
    throw new Error(`Could not write the app into ${name(target)}: ${/** @type {Error} */ (error).message}`, {
      cause: error,
    });
  }
  console.log(nextSteps(relative(cwd, target), name(target), writes.length));
}

/**
 * The new app's `package.json`.
 * @param {string} folder the name of the app's folder
 * @param {FrameworkPackage} framework the framework's own `package.json`
 */
function appPackage(folder, framework) {
  /** @type {(from: Record<string, string>, name: string) => string} */
  const range = (from, name) => {
    const found = from[name];
    if (found === undefined) throw new Error(`switchyard-react's package.json has no version for ${name}.`);
    return found;
  };
  const devDependencies = Object.fromEntries(
    DEV_TOOLS.map((name) => {
      const version = range(framework.devDependencies, name);
      // A compiler's minor and patch releases change what it reports: the app gets the one tested.
      return [name, name === 'typescript' ? version.replace(/^[~^]/, '') : version];
    }),
  );
  return {
    name: packageName(folder),
    private: true,
    type: 'module',
    ...(framework.engines ? { engines: framework.engines } : {}),
    scripts: {
      dev: 'switchyard dev',
      build: 'switchyard build',
      start: 'switchyard start',
      // The route types are generated, not committed: written first, so links are checked.
      typecheck: 'switchyard typegen && tsc --noEmit',
      test: 'vitest run',
    },
    dependencies: {
      'switchyard-react': `^${framework.version}`,
      react: range(framework.peerDependencies, 'react'),
      'react-dom': range(framework.peerDependencies, 'react-dom'),
    },
    devDependencies,
  };
}

/**
 * A folder's name as an npm package name: lower case, accents dropped, and each run of what npm
 * refuses (spaces, most punctuation, a leading dot or underscore) made one `-`.
 * @example packageName('My App') // 'my-app'
 * @param {string} folder
 */
export function packageName(folder) {
  const name = folder
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 214);
  return name === '' || name === 'node_modules' ? 'app' : name;
}

/**
 * Why `target` cannot take the app, or `undefined`.
 * @param {string} target
 * @param {boolean} force
 * @param {(path: string) => string} name how messages name a path
 */
function targetProblem(target, force, name) {
  // The nearest part of the path that exists must be a folder, for mkdir to go on from it.
  let existing = target;
  while (!existsSync(existing)) existing = dirname(existing);
  if (!statSync(existing).isDirectory()) {
    return existing === target
      ? `${name(target)} is a file, not a folder. Name a new folder for the app.`
      : `Cannot create ${name(target)}: ${name(existing)} is a file, not a folder.`;
  }
  if (existing !== target || force) return undefined;
  // A folder a repository was just cloned into holds only `.git`: the app may go there.
  const entries = readdirSync(target).filter((entry) => entry !== '.git');
  if (entries.length === 0) return undefined;
  return `The folder ${name(target)} is not empty. Name a new folder, or run again with --force to write the app into it (files of the same name are replaced, others kept).`;
}

/**
 * A write that a folder is in the way of (or a file, where a folder must go), as a message;
 * else `undefined`. Only a folder written with `--force` can have one.
 * @param {string} target
 * @param {string[]} writes the paths to write, relative to `target`, with `/`
 * @param {(path: string) => string} name how messages name a path
 */
function collision(target, writes, name) {
  for (const path of writes) {
    const parts = path.split('/');
    for (let n = 1; n <= parts.length; n++) {
      const at = join(target, ...parts.slice(0, n));
      if (!existsSync(at)) break;
      const wantsFolder = n < parts.length;
      if (statSync(at).isDirectory() !== wantsFolder) {
        const what = wantsFolder
          ? 'a file where the app needs a folder'
          : 'a folder where the app needs a file';
        return `Cannot write the app into ${name(target)}: ${name(at)} is ${what}. Move it away and run again.`;
      }
    }
  }
  return undefined;
}

/**
 * The template's files, relative to `dir` with `/`, sorted.
 * @param {string} dir
 * @returns {string[]}
 */
function templateFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/**
 * What the command prints when it is done.
 * @param {string} path the app's folder, relative to where the command ran (`''` for that one)
 * @param {string} named how messages name it
 * @param {number} count the files written
 */
function nextSteps(path, named, count) {
  const cd = path === '' ? [] : [`  cd ${shellWord(path)}`];
  return [
    `Created an app in ${named}: ${count} files.`,
    '',
    'Next:',
    ...cd,
    '  npm install',
    '  npm run dev    # the development server, on http://localhost:3000',
    '',
    'For production:',
    '  npm run build && npm start',
  ].join('\n');
}

/**
 * A path as one word for a POSIX shell: as it is when that is safe, else in single quotes.
 * @param {string} path
 */
function shellWord(path) {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", `'\\''`)}'`;
}
