/**
 * The router runtime alone: the client entry built as for production with React, the app's
 * route modules and the build's virtual modules left out. What a first load runs is the entry
 * chunk and its static imports; what the entry imports once the page is up (the router's
 * navigation code) is counted apart, and what only some pages ever load is left out: the
 * devtools' API and their panel, loaded only when asked for (in development, with `?devtools`,
 * on Alt+Shift+D or a call of `window.__SWITCHYARD_DEVTOOLS__()`), the Sentry SDK with a DSN,
 * its tracing with a traces rate, devalue for page data that came encoded (loader data that is
 * not plain JSON), the slots' rules in an app with slots, the interception matcher in an app
 * with intercepting routes.
 */
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { build, type Rolldown } from 'vite';
import { FRAMEWORK_ROOT } from '../../server/vite/vite-config';

/** Modules loaded only when asked for: their chunks are neither first-load nor after-paint code. */
const ON_DEMAND = [
  'client/devtools/panel.tsx',
  'client/devtools/api.ts',
  'client/app-error-page.tsx',
  'client/sentry-browser.ts',
  'client/sentry-tracing.ts',
  'client/route-interception.ts',
  'client/slot-rules.ts',
  'node_modules/devalue/src/index.js',
];

type Chunk = Rolldown.OutputChunk;

export interface CodeSize {
  raw: number;
  gzip: number;
  /**
   * Which modules the bytes come from, most costly first: `bytes` of their code in the chunk
   * (before minifying), and `gzip`, what gzip of all those modules' code loses without this one
   * (its share of the compressed size, before minifying: where to cut first).
   */
  modules: { module: string; bytes: number; gzip?: number }[];
}

export async function routerRuntime(): Promise<CodeSize & { afterPaint: CodeSize }> {
  const output = (await build({
    root: FRAMEWORK_ROOT,
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    plugins: [react()],
    build: {
      write: false,
      rollupOptions: {
        input: `${FRAMEWORK_ROOT}/client/entry.tsx`,
        external: [/^react($|\/|-dom)/, /^scheduler/, /^virtual:/, '@vitejs/plugin-react/preamble'],
      },
    },
  })) as Rolldown.RolldownOutput;
  const chunks = new Map(
    output.output.flatMap((item) => (item.type === 'chunk' ? [[item.fileName, item] as const] : [])),
  );
  // By the path's end: node_modules may be a link to another tree (a worktree's), which Vite resolves.
  const onDemand = (chunk: Chunk) => ON_DEMAND.some((m) => chunk.facadeModuleId?.endsWith(`/${m}`));
  /** The chunks `names` run, with their static imports (externals are imports but not chunks). */
  const closure = (names: readonly string[], seen = new Set<string>()) => {
    const visit = (name: string) => {
      if (seen.has(name) || !chunks.has(name)) return;
      seen.add(name);
      chunks.get(name)!.imports.forEach(visit);
    };
    names.forEach(visit);
    return seen;
  };
  const entry = [...chunks.values()].find((chunk) => chunk.isEntry)!;
  const firstLoad = closure([entry.fileName]);
  // Whatever the first load imports dynamically, but for the chunks only some pages ask for.
  const afterPaint = new Set<string>();
  for (let grew = true; grew;) {
    const size = afterPaint.size;
    const dynamic = [...firstLoad, ...afterPaint].flatMap((name) => chunks.get(name)!.dynamicImports);
    const wanted = dynamic.filter((name) => chunks.has(name) && !onDemand(chunks.get(name)!));
    closure(wanted, afterPaint);
    firstLoad.forEach((name) => afterPaint.delete(name));
    grew = afterPaint.size > size;
  }
  const sizeOf = (names: ReadonlySet<string>): CodeSize => {
    const code = [...names].map((name) => chunks.get(name)!.code).join('\n');
    const rendered = [...names].flatMap((name) => Object.entries(chunks.get(name)!.modules));
    const gzip = (parts: readonly { code: string | null }[]) =>
      gzipSync(parts.map((part) => part.code ?? '').join('\n'), { level: 9 }).length;
    const whole = gzip(rendered.map(([, info]) => info));
    const modules = rendered
      .map(([id, info]) => ({
        module: id.replace(`${FRAMEWORK_ROOT}/`, '').replace(/^\0/, ''),
        bytes: info.renderedLength,
        gzip: whole - gzip(rendered.flatMap(([other, rest]) => (other === id ? [] : [rest]))),
      }))
      .sort((a, b) => b.gzip - a.gzip || b.bytes - a.bytes);
    return { raw: code.length, gzip: code ? gzipSync(code, { level: 9 }).length : 0, modules };
  };
  return { ...sizeOf(firstLoad), afterPaint: sizeOf(afterPaint) };
}
