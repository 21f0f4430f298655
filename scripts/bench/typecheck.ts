/**
 * What typed routes cost `tsc --noEmit`: the app of `typed-routes-app.ts` with the route types
 * the real `switchyard typegen` writes, and the same app without them, both checked at once, so
 * that the neighbours of a shared machine weigh on both alike and the row takes the time of the
 * longer check rather than of both. Each figure is the median of its runs.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROUTES, writeTypedRoutesApp } from './typed-routes-app';
import { median } from './load';

export interface TscFigures {
  /** "Check time" of `--extendedDiagnostics`: wall time, so it follows the machine's load. */
  checkMs: number;
  /** User and system CPU of the whole run (parsing too): the steadier figure on a shared machine. */
  cpuMs: number;
  /** "Memory used": the heap the program and its checker hold at the end. */
  memoryMiB: number;
}

export interface TypecheckFigures {
  routes: number;
  typescript: string;
  runs: number;
  /** With the generated route types: `Href` is the app's URLs. */
  typed: TscFigures;
  /** The same app without them: `Register` is empty and `Href` is `string`. */
  untyped: TscFigures;
}

const require = createRequire(import.meta.url);
const TSC = require.resolve('typescript/bin/tsc');
/** Loaded before tsc: prints the CPU time of the process as it exits. */
const PRINT_CPU = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => { const { user, system } = process.cpuUsage(); process.stderr.write(`\\ncpu-us ${user + system}\\n`); });",
)}`;

export async function measureTypecheck(
  frameworkRoot: string,
  dir: string,
  runs: number,
): Promise<TypecheckFigures> {
  const projects = { typed: join(dir, 'typed'), untyped: join(dir, 'untyped') };
  writeTypedRoutesApp(projects.typed, { frameworkRoot, routeTypes: true });
  writeTypedRoutesApp(projects.untyped, { frameworkRoot, routeTypes: false });
  execFileSync(process.execPath, [join(frameworkRoot, 'bin/switchyard.js'), 'typegen', '--app', 'app'], {
    cwd: projects.typed,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const figures: Record<'typed' | 'untyped', TscFigures[]> = { typed: [], untyped: [] };
  for (let run = 0; run < runs; run++) {
    const [typed, untyped] = await Promise.all([tsc(projects.typed), tsc(projects.untyped)]);
    figures.typed.push(typed);
    figures.untyped.push(untyped);
  }
  const medians = (of: TscFigures[]): TscFigures => ({
    checkMs: median(of.map((f) => f.checkMs)),
    cpuMs: median(of.map((f) => f.cpuMs)),
    memoryMiB: median(of.map((f) => f.memoryMiB)),
  });
  return {
    routes: ROUTES,
    typescript: (require('typescript/package.json') as { version: string }).version,
    runs,
    typed: medians(figures.typed),
    untyped: medians(figures.untyped),
  };
}

/** One `tsc --noEmit` of the project; a type error in the app is a broken bench, not a figure. */
async function tsc(project: string): Promise<TscFigures> {
  const child = spawn(
    process.execPath,
    [`--import=${PRINT_CPU}`, TSC, '-p', project, '--noEmit', '--extendedDiagnostics'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (status !== 0) {
    throw new Error(`tsc -p ${project} failed:\n${stdout.slice(0, 4000)}${stderr}`);
  }
  const figure = (output: string, pattern: RegExp) => {
    const match = pattern.exec(output);
    if (!match) throw new Error(`tsc printed no ${pattern.source}:\n${output}`);
    return Number(match[1]);
  };
  return {
    checkMs: figure(stdout, /^Check time:\s+([\d.]+)s$/m) * 1000,
    cpuMs: figure(stderr, /^cpu-us (\d+)$/m) / 1000,
    memoryMiB: figure(stdout, /^Memory used:\s+(\d+)K$/m) / 1024,
  };
}
