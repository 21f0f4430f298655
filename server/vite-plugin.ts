/**
 * The Vite plugin that turns an app directory into modules:
 *
 * - `virtual:switchyard/routes` exports `modules`, one lazy `import()` per route file, so each
 *   route's components are their own chunk. The client build gets component files only; the
 *   server build also gets `.server.ts` files.
 * - Server-only modules (`*.server.*`, `node:*`, the framework's `server/`) imported from client
 *   code fail the build with the importer named (SPEC R2).
 * - The route tree is validated when a build or the dev server starts (SPEC R5).
 */
import { relative, resolve, sep } from 'node:path';
import type { Plugin } from 'vite';
import { buildRouteTree, COMPONENT_FILES, classifyFile } from '../shared/route-tree';
import { scanAppDir } from './scan-app-dir';

export const ROUTES_ID = 'virtual:switchyard/routes';
const RESOLVED_ROUTES_ID = '\0' + ROUTES_ID;
const COMPONENT_ROLES: ReadonlySet<string> = new Set(COMPONENT_FILES);

export interface SwitchyardPluginOptions {
  /** Absolute path of the app directory. */
  appDir: string;
  /** Absolute path of the framework's own `server/` folder, which never reaches the browser. */
  serverDir: string;
}

export function switchyardPlugin({ appDir, serverDir }: SwitchyardPluginOptions): Plugin {
  let files: string[] = [];
  const rescan = () => {
    files = scanAppDir(appDir);
    buildRouteTree(files);
  };
  const isClient = (env: { config: { consumer: string } } | undefined) => env?.config.consumer === 'client';

  return {
    name: 'switchyard',
    enforce: 'pre',
    buildStart() {
      rescan();
    },
    resolveId: {
      order: 'pre',
      async handler(source, importer, options) {
        if (source === ROUTES_ID) return RESOLVED_ROUTES_ID;
        if (!importer || !isClient(this.environment)) return null;
        if (source.startsWith('node:')) {
          this.error(`${describe(importer)} imports "${source}", which only runs on the server`);
        }
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        if (resolved && isServerOnly(resolved.id, serverDir)) {
          this.error(
            `${describe(importer)} imports the server-only module ${describe(resolved.id)}: ` +
              'code in .server files and in server/ never reaches the browser. Move what the client needs into a shared module.',
          );
        }
        return resolved;
      },
    },
    load(id) {
      if (id !== RESOLVED_ROUTES_ID) return null;
      const client = isClient(this.environment);
      const entries = files
        .filter((file) => !client || COMPONENT_ROLES.has(classifyFile(file.split('/').pop()!)!))
        .map((file) => `  ${JSON.stringify(file)}: () => import(${JSON.stringify(resolve(appDir, file))}),`);
      return `export const modules = {\n${entries.join('\n')}\n};\n`;
    },
    configureServer(server) {
      const onChange = (path: string) => {
        if (!path.startsWith(appDir + sep) || !classifyFile(path.split(sep).pop()!)) return;
        try {
          rescan();
        } catch (error) {
          server.config.logger.error(String(error));
          return;
        }
        for (const env of Object.values(server.environments)) {
          const mod = env.moduleGraph.getModuleById(RESOLVED_ROUTES_ID);
          if (mod) env.moduleGraph.invalidateModule(mod);
        }
        server.ws.send({ type: 'full-reload' });
      };
      server.watcher.on('add', onChange);
      server.watcher.on('unlink', onChange);
    },
  };
}

function isServerOnly(id: string, serverDir: string): boolean {
  const path = id.split('?')[0]!;
  return /\.server\.[cm]?[jt]sx?$/.test(path) || path.startsWith(serverDir + sep);
}

function describe(id: string): string {
  return relative(process.cwd(), id.split('?')[0]!) || id;
}
