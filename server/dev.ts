/**
 * `switchyard dev`: Vite in middleware mode under Express, with HMR on the same port and React
 * Fast Refresh. Route modules load through Vite's SSR module graph, so edits show on reload
 * without a restart; adding or removing a route file rebuilds the route tree. The document
 * links the CSS its route files import, so the first paint is styled, with JavaScript or not.
 *
 * The framework's own server code loads through that graph too: app code reaches the router's
 * React context as `switchyard`, and it must be the very module instance the renderer provides,
 * not a second copy that Node loaded beside Vite's.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import express from 'express';
import { relative, resolve } from 'node:path';
import { createServer, isCSSRequest, type ViteDevServer } from 'vite';
import { onceLogger } from './vite/dev-logger.js';
import type { createApp as CreateApp, SwitchyardApp } from './create-app.js';
import type { ClientAssets, RouteModules } from './render/route-runtime.js';
import { CLIENT_ENTRY, frameworkFile, viteConfigFor } from './vite/vite-config.js';
import { ACTIONS_ID, ROUTES_ID } from './vite/vite-plugin.js';
import type { ActionModules } from './options.js';

export interface DevServerOptions {
  /** Absolute path of the project root (Vite's root); the working directory by default. */
  root?: string;
  /** Absolute path of the app directory. */
  appDir: string;
  port: number;
  /** The address to listen on; every interface by default, as Node does. */
  host?: string | undefined;
}

export async function startDevServer({
  root = process.cwd(),
  appDir,
  port,
  host,
}: DevServerOptions): Promise<Server> {
  const outer = express();
  const http = createHttpServer(outer);
  const logger = onceLogger();
  const vite = await createServer({
    ...viteConfigFor({ root, appDir }),
    mode: 'development',
    customLogger: logger,
    server: { middlewareMode: true, ws: { server: http } },
  });
  vite.watcher.on('all', () => logger.forget());
  outer.disable('x-powered-by');
  outer.use(vite.middlewares);

  let current: { modules: unknown; actions: unknown; app: SwitchyardApp } | undefined;
  outer.use(async (req, res, next) => {
    try {
      const { modules } = (await vite.ssrLoadModule(ROUTES_ID)) as { modules: RouteModules };
      const { actions } = (await vite.ssrLoadModule(ACTIONS_ID)) as { actions: ActionModules };
      const { createApp } = (await vite.ssrLoadModule(frameworkFile('server/create-app.ts'))) as {
        createApp: typeof CreateApp;
      };
      // A new module object means the route files (or the 'use server' modules) changed: build
      // the route tree and the action table again.
      if (current?.modules !== modules || current.actions !== actions) {
        const app = createApp({
          modules,
          actions,
          mode: 'development',
          assets: {
            bootstrap: ['/@vite/client', urlOf(root, CLIENT_ENTRY)],
            common: { scripts: [], styles: [] },
            files: devStyles(vite, appDir),
          },
        });
        current = { modules, actions, app };
      }
      current.app(req, res, next);
    } catch (error) {
      vite.ssrFixStacktrace(error as Error);
      next(error);
    }
  });
  http.on('close', () => void vite.close());
  await new Promise<void>((resolve, reject) => {
    // A port in use is the caller's to report; Vite is closed so the process can exit.
    http.once('error', (error) => void vite.close().finally(() => reject(error)));
    http.listen(port, host, resolve);
  });
  return http;
}

/** The dev server's URL of a file: by its path under the root, or by Vite's `/@fs/` prefix. */
function urlOf(root: string, file: string): string {
  const path = relative(root, file).split('\\').join('/');
  return path.startsWith('../') || path === '..' ? `/@fs${file}` : `/${path}`;
}

/**
 * The stylesheets of each route file, read from Vite's SSR module graph when the document asks:
 * by then the server has loaded the page's files, so every CSS module they import (directly or
 * not) is in the graph. Linked with `?direct`, Vite answers them as CSS. The client entry drops
 * these links once Vite's own style tags (which HMR updates) are in.
 */
function devStyles(vite: ViteDevServer, appDir: string): ClientAssets['files'] {
  const graph = vite.environments.ssr.moduleGraph;
  const stylesOf = (file: string): string[] => {
    const styles = new Set<string>();
    const seen = new Set<unknown>();
    const visit = (node: ReturnType<typeof graph.getModuleById>) => {
      if (!node || seen.has(node)) return;
      seen.add(node);
      if (isCSSRequest(node.url)) styles.add(`${node.url}${node.url.includes('?') ? '&' : '?'}direct`);
      node.importedModules.forEach(visit);
    };
    visit(graph.getModuleById(resolve(appDir, file)));
    return [...styles];
  };
  // A record whose entries are computed when read: the graph changes as the author edits.
  return new Proxy(
    {},
    {
      get: (_target, file) =>
        typeof file === 'string' ? { scripts: [], styles: stylesOf(file) } : undefined,
    },
  );
}
