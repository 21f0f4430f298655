/**
 * nginx in front of test servers: Debian's `nginx` binary, a generated configuration in a
 * temporary directory, listening on 127.0.0.1 only, round robin over the upstreams. Without the
 * package the tests skip, and fail under `CI=true`. The configuration is the one
 * docs/deploying.md shows, with the ports filled in.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NGINX = '/usr/sbin/nginx';
export const NGINX_MISSING =
  'nginx is not installed, so the load-balancer tests are skipped. Install it with ' +
  '`sudo apt-get install -y nginx` (Debian/Ubuntu); with CI=true they fail instead.';

export function nginxBin(): string | undefined {
  if (existsSync(NGINX)) return NGINX;
  if (process.env.CI === 'true') throw new Error(NGINX_MISSING);
  console.warn(NGINX_MISSING);
  return undefined;
}

export interface SiteOptions {
  /**
   * The `Host` nginx sends, `$http_host` as documented; `$host` (no port) is what earlier docs
   * and many deployments have.
   */
  host?: '$http_host' | '$host';
}

/** The site's part of the configuration: what a deployment puts in its own nginx.conf. */
export function siteConfig(
  listen: string,
  upstreams: readonly string[],
  { host = '$http_host' }: SiteOptions = {},
): string {
  return `upstream switchyard {
    ${upstreams.map((address) => `server ${address} max_fails=3 fail_timeout=5s;`).join('\n    ')}
  }
  server {
    listen ${listen};
    location / {
      proxy_pass http://switchyard;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host ${host};
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      # Streamed pages reach the browser as they render.
      proxy_buffering off;
    }
  }`;
}

export interface RunningNginx {
  url: string;
  stop(): Promise<void>;
}

/** nginx on `port` of 127.0.0.1 (a free one the caller picked), in front of `upstreams`. */
export async function startNginx(
  bin: string,
  port: number,
  upstreams: readonly string[],
  site: SiteOptions = {},
): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-nginx-'));
  const temp = (name: string) => `${name}_temp_path ${join(dir, name)};`;
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  ${siteConfig(`127.0.0.1:${port}`, upstreams, site)}
}
`,
  );
  const child: ChildProcess = spawn(
    bin,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Ready when the port takes a connection; an nginx that exits first failed to start.
  for (;;) {
    const ready = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: '127.0.0.1' }, () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ready) break;
    if (child.exitCode !== null) throw new Error(`nginx did not start:\n${stderr}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
