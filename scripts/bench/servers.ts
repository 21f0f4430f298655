/**
 * The servers under test, each a child process of the bench: started with a free port, read
 * through /proc (CPU time and resident memory of that one process), stopped with SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { FRAMEWORK_ROOT } from '../../server/vite/vite-config';

export type ServerName = 'switchyard' | 'bare' | 'demo';

export interface RunningServer {
  name: ServerName;
  origin: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the port being announced. */
  listenMs: number;
}

const CLOCK_TICKS_PER_S = 100;

/** The command line of each server: a production build run by plain Node, no compiler loaded. */
export function commandOf(name: ServerName, outDir: string): string[] {
  return name === 'bare'
    ? [`${outDir}/server/server.js`, outDir]
    : ['bin/switchyard.js', 'start', '--out', outDir, '--port', '0'];
}

export interface StartOptions {
  /** Without Sentry unless `env` sets `SENTRY_DSN` (and its other settings). */
  env?: Record<string, string>;
  /**
   * A command that runs Node in turn, such as valgrind and its options: the child is then that
   * command, which must serve in its own process (no wrapper script between it and Node).
   */
  launcher?: string[];
  /** Node's own options, before the server's script. */
  nodeOptions?: string[];
  /** How long the server may take to announce its port before it is killed. */
  announceTimeoutMs?: number;
}

export function startServer(
  name: ServerName,
  outDir: string,
  { env = {}, launcher = [], nodeOptions = [], announceTimeoutMs = 30_000 }: StartOptions = {},
): Promise<RunningServer> {
  const started = performance.now();
  const [command, ...args] = [...launcher, process.execPath, ...nodeOptions, ...commandOf(name, outDir)];
  const child = spawn(command!, args, {
    cwd: FRAMEWORK_ROOT,
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', SENTRY_DSN: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not announce its port within ${announceTimeoutMs / 1000} s`));
    }, announceTimeoutMs);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before listening`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /http:\/\/localhost:(\d+)/.exec(out)?.[1];
      if (!port) return;
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data');
      child.stdout!.resume();
      resolve({ name, origin: `http://127.0.0.1:${port}`, child, listenMs: performance.now() - started });
    });
  });
}

export async function stopServer(server: RunningServer): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** User plus system CPU time of the process so far, in milliseconds (10 ms resolution). */
export function cpuMs(server: RunningServer): number {
  const stat = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

/** Resident memory of the process, in MiB. */
export function rssMiB(server: RunningServer): number {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}
