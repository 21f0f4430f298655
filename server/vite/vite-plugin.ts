/**
 * The Vite plugin that turns an app directory into modules:
 *
 * - `virtual:switchyard/routes` exports `modules`, one lazy `import()` per route file, so each
 *   route's components are their own chunk. The client build gets component files only, and
 *   of each module its component (a `head` export runs on the server, and stays out of the
 *   browser's chunk); the server build also gets `.server.ts` files and route handlers
 *   (`route.ts`), whole. Beside them:
 *   `routes`, the route table the browser matches URLs with (build-route-table.ts), and
 *   whether the app has slots (`slots`) and intercepts (`intercepts`).
 * - Server-only modules (`*.server.*`, route handlers, `node:*`, the framework's `server/`)
 *   imported from client code fail the build with the importer named.
 * - `virtual:switchyard/config` exports `config`, the router settings of the app's
 *   `switchyard.config.json` over the defaults, checked when it is read.
 * - `"use server"` modules become references in the client build, and
 *   `virtual:switchyard/actions` gives the server every action by id (`use-server.ts`).
 * - `virtual:switchyard/instrumentation` exports `register`, the start-up hook of the app's
 *   `instrumentation.server.ts` (undefined without one), which `switchyard start` awaits.
 * - The route tree is validated when a build or the dev server starts, and so is the app's
 *   `public/` folder against it (public-files.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'vite';
import {
  DEFAULT_ROUTER_CONFIG,
  parseRouterConfig,
  ROUTER_CONFIG_FILE,
  type RouterConfig,
} from '../../shared/router-config.js';
import { hasSlots, intercepts, routeTable } from '../../shared/build-route-table.js';
import {
  assembleRouteTree,
  buildRouteTree,
  COMPONENT_FILES,
  classifyFile,
  HANDLER_FILE,
  type RouteNode,
} from '../../shared/route-tree.js';
import { actionId } from '../actions/action-registry.js';
import { checkPublicFiles } from './public-files.js';
import { frameworkFile } from './framework-files.js';
import { scanAppDir } from './scan-app-dir.js';
import { writeRouteTypes } from '../typegen.js';
import { inlineTypeImportsKept, reachableModules } from '../actions/reachable-actions.js';
import {
  checkServerExports,
  clientModule,
  inlineServerFunction,
  isUseServer,
  parseModule,
  serverExports,
  serverModule,
} from '../actions/use-server.js';

export const ROUTES_ID = 'virtual:switchyard/routes';
const RESOLVED_ROUTES_ID = '\0' + ROUTES_ID;
export const CONFIG_ID = 'virtual:switchyard/config';
const RESOLVED_CONFIG_ID = '\0' + CONFIG_ID;
export const ACTIONS_ID = 'virtual:switchyard/actions';
const RESOLVED_ACTIONS_ID = '\0' + ACTIONS_ID;
export const INSTRUMENTATION_ID = 'virtual:switchyard/instrumentation';
const RESOLVED_INSTRUMENTATION_ID = '\0' + INSTRUMENTATION_ID;
/** The app's start-up hook, at the root of its app directory (as Next.js's `instrumentation.ts`). */
export const INSTRUMENTATION_FILE = 'instrumentation.server.ts';
/** Script files, the only ones that can be `'use server'` modules. */
const SOURCE = /\.[cm]?[jt]sx?$/;
/** The runtime the generated action code imports: references and form marks. */
const REFERENCE_RUNTIME = frameworkFile('client/server-reference.ts');

/** The app's router settings: its config file over the defaults, or the defaults alone. */
export function readRouterConfig(appDir: string): RouterConfig {
  const file = resolve(appDir, ROUTER_CONFIG_FILE);
  if (!existsSync(file)) return DEFAULT_ROUTER_CONFIG;
  return parseRouterConfig(readFileSync(file, 'utf8'), relative(process.cwd(), file));
}
const COMPONENT_ROLES: ReadonlySet<string> = new Set(COMPONENT_FILES);

export interface SwitchyardPluginOptions {
  /** Absolute path of the app directory. */
  appDir: string;
  /** Absolute path of the framework's own `server/` folder, which never reaches the browser. */
  serverDir: string;
}

export function switchyardPlugin({ appDir, serverDir }: SwitchyardPluginOptions): Plugin {
  let files: string[] = [];
  let config = DEFAULT_ROUTER_CONFIG;
  // The folder Vite serves at the root path, as it resolved it; '' for none.
  let publicDir = '';
  // The project root, as Vite resolved it: the route types go into its `.switchyard/types`.
  let projectRoot = '';
  // Action ids are paths relative to here: `src/` for `src/app`.
  const sourceRoot = dirname(appDir);
  let tree: RouteNode | undefined;
  const rescan = () => {
    files = scanAppDir(appDir);
    tree = buildRouteTree(files);
    // Build and dev keep the route types current, as `switchyard typegen` does, for an app
    // directory inside the project (a test may point Vite at one elsewhere).
    if (projectRoot && !relative(projectRoot, appDir).startsWith('..'))
      writeRouteTypes(projectRoot, appDir, tree);
    config = readRouterConfig(appDir);
    checkPublicFiles(tree, appDir, publicDir);
  };
  const isClient = (env: { config: { consumer: string } } | undefined) => env?.config.consumer === 'client';

  return {
    name: 'switchyard',
    enforce: 'pre',
    configResolved(resolved) {
      publicDir = resolved.publicDir;
      projectRoot = resolved.root;
    },
    buildStart() {
      rescan();
    },
    resolveId: {
      order: 'pre',
      async handler(source, importer, options) {
        if (source === ROUTES_ID) return RESOLVED_ROUTES_ID;
        if (source === CONFIG_ID) return RESOLVED_CONFIG_ID;
        if (source === ACTIONS_ID) return RESOLVED_ACTIONS_ID;
        if (source === INSTRUMENTATION_ID) return RESOLVED_INSTRUMENTATION_ID;
        if (!importer || !isClient(this.environment)) return null;
        if (source.startsWith('node:')) {
          this.error(`${describe(importer)} imports "${source}", which only runs on the server`);
        }
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        if (resolved && isServerOnly(resolved.id, serverDir, appDir)) {
          this.error(
            `${describe(importer)} imports the server-only module ${describe(resolved.id)}: ` +
              'code in .server files, route handlers and server/ never reaches the browser. Move what the client needs into a shared module.',
          );
        }
        return resolved;
      },
    },
    async load(id) {
      if (id === RESOLVED_CONFIG_ID) return `export const config = ${JSON.stringify(config)};\n`;
      if (id === RESOLVED_INSTRUMENTATION_ID) {
        const file = resolve(appDir, INSTRUMENTATION_FILE);
        return existsSync(file)
          ? `export { register } from ${JSON.stringify(file)};\n`
          : 'export const register = undefined;\n';
      }
      if (id === RESOLVED_ACTIONS_ID) {
        // Only what the app reaches: a scan of the whole source root let one app call another's.
        const resolveImport = async (specifier: string, importer: string) =>
          (await this.resolve(specifier, importer, { skipSelf: true }))?.id;
        const files = await reachableModules(appDir, sourceRoot, {
          resolveImport,
          keepsInlineTypeImports: inlineTypeImportsKept(this.environment.config),
        });
        const entries = files.flatMap((path) => {
          const file = relative(sourceRoot, path).split(sep).join('/');
          // What the build cannot call is left out here; the module's own transform says why.
          const { callable } = serverExports(parseModule(path, readFileSync(path, 'utf8')).program);
          return callable.map(({ name }) => actionEntry(actionId(file, name), path, name));
        });
        return `export const actions = {\n${entries.join('\n')}\n};\n`;
      }
      if (id !== RESOLVED_ROUTES_ID) return null;
      const client = isClient(this.environment);
      const componentFiles = files.filter((file) =>
        COMPONENT_ROLES.has(classifyFile(file.split('/').pop()!)!),
      );
      // The browser reads a route module's component only: named so, the build leaves its other
      // exports out of the route's chunk (a `head`, which runs on the server, with what it uses).
      const entries = (client ? componentFiles : files).map((file) => {
        const module = `import(${JSON.stringify(resolve(appDir, file))})`;
        return `  ${JSON.stringify(file)}: () => ${client ? `${module}.then(({ default: d }) => ({ default: d }))` : module},`;
      });
      // What the browser matches a URL with: the table of the tree its component files make.
      const table = routeTable(assembleRouteTree(componentFiles)).map(
        (entry) => `  ${JSON.stringify(entry)},`,
      );
      return [
        `export const modules = {\n${entries.join('\n')}\n};`,
        `export const routes = [\n${table.join('\n')}\n];`,
        `export const slots = ${hasSlots(componentFiles)};`,
        `export const intercepts = ${intercepts(componentFiles)};\n`,
      ].join('\n');
    },
    transform(code, id) {
      const path = id.split('?')[0]!;
      if (id.startsWith('\0') || !SOURCE.test(path) || path.includes(`${sep}node_modules${sep}`)) return null;
      // Most modules never mention the directive: they are not parsed here.
      if (!code.includes('use server')) return null;
      const parsed = parseModule(path, code);
      // Fails closed: a module this parser cannot read might be one whose code must not reach the browser.
      if (parsed.errors.length > 0) this.error(`${describe(path)}: ${parsed.errors[0]!.message}`);
      if (!isUseServer(parsed.program)) {
        const at = inlineServerFunction(parsed.program);
        if (at === undefined) return null;
        const line = code.slice(0, at).split('\n').length;
        this.error(
          `${describe(path)}:${line}: 'use server' inside a function is not supported: this function would run in the browser. ` +
            `Move it to a module whose first line is 'use server' and import it from there.`,
        );
      }
      const file = relative(sourceRoot, path).split(sep).join('/');
      if (file.startsWith('..'))
        this.error(`${describe(path)}: "use server" modules live under ${describe(sourceRoot)}`);
      // Thrown, it is a plugin error: the build stops, and the dev server shows it as it shows any.
      const exports = checkServerExports(parsed.program, describe(path));
      return isClient(this.environment)
        ? clientModule(exports, file, REFERENCE_RUNTIME)
        : serverModule(code, exports, file, REFERENCE_RUNTIME);
    },
    configureServer(server) {
      const onChange = (path: string) => {
        const name = path.split(sep).pop()!;
        if (!path.startsWith(appDir + sep) || !(classifyFile(name) || name === ROUTER_CONFIG_FILE)) return;
        try {
          rescan();
        } catch (error) {
          server.config.logger.error(String(error));
          return;
        }
        for (const env of Object.values(server.environments)) {
          for (const id of [RESOLVED_ROUTES_ID, RESOLVED_CONFIG_ID]) {
            const mod = env.moduleGraph.getModuleById(id);
            if (mod) env.moduleGraph.invalidateModule(mod);
          }
        }
        server.ws.send({ type: 'full-reload' });
      };
      // The actions module lists the 'use server' modules it found: a module that became one, or
      // stopped being one, or went away, means a new list (and the server takes new actions).
      const onSource = (path: string) => {
        if (!path.startsWith(sourceRoot + sep) || path.includes(`${sep}node_modules${sep}`)) return;
        if (!SOURCE.test(path)) return;
        for (const env of Object.values(server.environments)) {
          const mod = env.moduleGraph.getModuleById(RESOLVED_ACTIONS_ID);
          if (mod) env.moduleGraph.invalidateModule(mod);
        }
      };
      // A file added to public/ is served at once: say so if it hides a page.
      const onPublic = (path: string) => {
        if (!publicDir || !tree || !path.startsWith(publicDir + sep)) return;
        try {
          checkPublicFiles(tree, appDir, publicDir);
        } catch (error) {
          server.config.logger.error(String(error));
        }
      };
      server.watcher.on('add', (path) => {
        onChange(path);
        onSource(path);
        onPublic(path);
      });
      server.watcher.on('unlink', (path) => {
        onChange(path);
        onSource(path);
      });
      server.watcher.on('change', (path) => {
        if (path === resolve(appDir, ROUTER_CONFIG_FILE)) onChange(path);
        onSource(path);
      });
    },
  };
}

/**
 * One line of the actions module: an action's id and how to load it. An export's name may be any
 * string (`export { f as "a-b" }`), so it is read as a quoted key.
 */
export function actionEntry(id: string, path: string, name: string): string {
  return `  ${JSON.stringify(id)}: () => import(${JSON.stringify(path)}).then((m) => m[${JSON.stringify(name)}]),`;
}

function isServerOnly(id: string, serverDir: string, appDir: string): boolean {
  const path = id.split('?')[0]!;
  if (/\.server\.[cm]?[jt]sx?$/.test(path) || path.startsWith(serverDir + sep)) return true;
  return path.startsWith(appDir + sep) && classifyFile(path.split(sep).pop()!) === HANDLER_FILE;
}

function describe(id: string): string {
  return relative(process.cwd(), id.split('?')[0]!) || id;
}
