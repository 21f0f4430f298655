/**
 * What typed routes cost `tsc --noEmit`: the app of `typed-routes-app.ts` with the route types
 * the real `switchyard typegen` writes, and the same app without them, both checked at once, so
 * that the neighbours of a shared machine weigh on both alike and the row takes the time of the
 * longer check rather than of both. Each figure is the median of its runs. The app is checked
 * by the repository's TypeScript and by the newest major from npm (7, the native compiler that
 * checks files on several threads, each with its own copy of what the files share), since that
 * is what `npm install typescript` gives a new app.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROUTES, writeTypedRoutesApp } from './typed-routes-app';
import { median } from './load';

export interface TscFigures {
  /** "Check time" of `--extendedDiagnostics`: wall time, so it follows the machine's load. */
  checkMs: number;
  /** User and system CPU of the whole run (parsing too, every thread): the steadier figure. */
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

/** A TypeScript to check with: its version and its `bin/tsc`. */
export interface Compiler {
  version: string;
  tsc: string;
}

const require = createRequire(import.meta.url);

/** The TypeScript of the repository. */
export function repositoryTypescript(): Compiler {
  return {
    version: (require('typescript/package.json') as { version: string }).version,
    tsc: require.resolve('typescript/bin/tsc'),
  };
}

/**
 * TypeScript 7 from npm, installed once into `dir` (npm's cache makes a second bench quick);
 * `undefined` when npm cannot get it (offline), and the row is left out.
 */
export function npmTypescript7(dir: string): Compiler | undefined {
  const root = join(dir, 'node_modules/typescript');
  if (!existsSync(join(root, 'package.json'))) {
    mkdirSync(dir, { recursive: true });
    try {
      execFileSync(
        'npm',
        ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', 'typescript@7'],
        {
          stdio: 'ignore',
          timeout: 300_000,
        },
      );
    } catch {
      return undefined;
    }
  }
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { version, tsc: join(root, 'bin/tsc') };
}

/** Writes the two apps into `dir` (`typed` with its route types generated, `untyped`). */
export function writeTypecheckApps(frameworkRoot: string, dir: string): { typed: string; untyped: string } {
  const projects = { typed: join(dir, 'typed'), untyped: join(dir, 'untyped') };
  writeTypedRoutesApp(projects.typed, { frameworkRoot, routeTypes: true });
  writeTypedRoutesApp(projects.untyped, { frameworkRoot, routeTypes: false });
  execFileSync(process.execPath, [join(frameworkRoot, 'bin/switchyard.js'), 'typegen', '--app', 'app'], {
    cwd: projects.typed,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return projects;
}

export async function measureTypecheck(
  projects: { typed: string; untyped: string },
  compiler: Compiler,
  runs: number,
): Promise<TypecheckFigures> {
  const figures: Record<'typed' | 'untyped', TscFigures[]> = { typed: [], untyped: [] };
  for (let run = 0; run < runs; run++) {
    const [typed, untyped] = await Promise.all([
      tsc(compiler, projects.typed),
      tsc(compiler, projects.untyped),
    ]);
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
    typescript: compiler.version,
    runs,
    typed: medians(figures.typed),
    untyped: medians(figures.untyped),
  };
}

/**
 * The shell's `times` after tsc: the CPU of its child, whatever the child turned into
 * (TypeScript 7's `bin/tsc` replaces its Node process with the native compiler).
 */
const WITH_CPU = '"$@"; status=$?; times >&2; exit $status';

/** One `tsc --noEmit` of the project; a type error in the app is a broken bench, not a figure. */
async function tsc(compiler: Compiler, project: string): Promise<TscFigures> {
  const child = spawn(
    'sh',
    [
      '-c',
      WITH_CPU,
      'sh',
      process.execPath,
      compiler.tsc,
      '-p',
      project,
      '--noEmit',
      '--extendedDiagnostics',
    ],
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
    throw new Error(`tsc ${compiler.version} -p ${project} failed:\n${stdout.slice(0, 4000)}${stderr}`);
  }
  const figure = (output: string, pattern: RegExp) => {
    const match = pattern.exec(output);
    if (!match) throw new Error(`tsc printed no ${pattern.source}:\n${output}`);
    return Number(match[1]);
  };
  return {
    checkMs: figure(stdout, /^Check time:\s+([\d.]+)s$/m) * 1000,
    cpuMs: childCpuMs(stderr),
    memoryMiB: figure(stdout, /^Memory used:\s+(\d+)K$/m) / 1024,
  };
}

/** The second line of `times`: user and system time of the children, as `0m12.340000s 0m0.560000s`. */
function childCpuMs(stderr: string): number {
  const lines = stderr.trim().split('\n');
  const match = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(lines.at(-1)!.trim());
  if (!match) throw new Error(`no CPU times after tsc:\n${stderr}`);
  const [, um, us, sm, ss] = match.map(Number) as [number, number, number, number, number];
  return ((um + sm) * 60 + us + ss) * 1000;
}
