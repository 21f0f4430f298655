/**
 * A throwaway PostgreSQL cluster for tests: Debian's `postgresql` binaries, `initdb` into a
 * temporary directory, `pg_ctl` on a free port on 127.0.0.1, run as the unprivileged `postgres`
 * user when the tests run as root. Without the package the tests skip, and fail under `CI=true`.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const PG_ROOT = '/usr/lib/postgresql';
export const PG_MISSING =
  'PostgreSQL is not installed, so the PostgreSQL store tests are skipped. Install it with ' +
  '`sudo apt-get install -y postgresql` (Debian/Ubuntu); with CI=true they fail instead.';

/** The newest installed server's bin directory, or undefined (and a failure in CI). */
export function postgresBin(): string | undefined {
  const versions = existsSync(PG_ROOT)
    ? readdirSync(PG_ROOT)
        .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return join(PG_ROOT, versions[0], 'bin');
  if (process.env.CI === 'true') throw new Error(PG_MISSING);
  console.warn(PG_MISSING);
  return undefined;
}

export interface TempPostgres {
  url: string;
  port: number;
  /** `fast` (the default) is a normal shutdown; `immediate` a crash, recovered from at the next start. */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** Stops the server and deletes its files. */
  destroy(): void;
}

/** A port nothing listens on now, on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts a fresh cluster; its `url` names a database that anyone on 127.0.0.1 may use (trust). */
export async function startTempPostgres(bin: string): Promise<TempPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-pg-'));
  const data = join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot) {
    const ids = execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim();
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, Number(ids), gid);
  }
  // PostgreSQL refuses to run as root: as root, each command runs as `postgres`.
  const run = (tool: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : join(bin, tool),
      asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args,
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      },
    );
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -F`;
  const start = () =>
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
  const stop = (mode: 'fast' | 'immediate' = 'fast') =>
    run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
  start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start() {
      start();
      running = true;
    },
    stop(mode) {
      stop(mode);
      running = false;
    },
    destroy() {
      try {
        if (running) stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
