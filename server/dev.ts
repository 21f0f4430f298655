/**
 * `switchyard dev`: Vite in middleware mode under Express, with HMR on the same port and React
 * Fast Refresh. Route modules load through Vite's SSR module graph, so edits show on reload
 * without a restart; adding or removing a route file rebuilds the route tree.
 *
 * The framework's own server code loads through that graph too: app code reaches the router's
 * React context as `switchyard`, and it must be the very module instance the renderer provides,
 * not a second copy that Node loaded beside Vite's.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import express from 'express';
import { createServer } from 'vite';
import type { createApp as CreateApp, SwitchyardApp } from './create-app';
import type { RouteModules } from './route-runtime';
import { CLIENT_ENTRY, FRAMEWORK_ROOT, viteConfigFor } from './vite-config';
import { ACTIONS_ID, ROUTES_ID } from './vite-plugin';
import type { ActionModules } from './action-handler';

export async function startDevServer({ appDir, port }: { appDir: string; port: number }): Promise<Server> {
  const outer = express();
  const http = createHttpServer(outer);
  const vite = await createServer({
    ...viteConfigFor({ appDir }),
    mode: 'development',
    server: { middlewareMode: true, hmr: { server: http } },
  });
  outer.disable('x-powered-by');
  outer.use(vite.middlewares);

  let current: { modules: unknown; actions: unknown; app: SwitchyardApp } | undefined;
  outer.use(async (req, res, next) => {
    try {
      const { modules } = (await vite.ssrLoadModule(ROUTES_ID)) as { modules: RouteModules };
      const { actions } = (await vite.ssrLoadModule(ACTIONS_ID)) as { actions: ActionModules };
      const { createApp } = (await vite.ssrLoadModule(`${FRAMEWORK_ROOT}/server/create-app.ts`)) as {
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
            bootstrap: ['/@vite/client', `/${CLIENT_ENTRY}`],
            common: { scripts: [], styles: [] },
            files: {},
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
  await new Promise<void>((resolve) => http.listen(port, resolve));
  return http;
}
