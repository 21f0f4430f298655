/**
 * The demo behind the real nginx on a port of its own (not 80), configured as docs/deploying.md
 * shows: a form posted without JavaScript comes back to its page, also behind a proxy that sends
 * `Host` without the port; and servers that all failed once (a deploy restarting them together)
 * are used again as soon as they are back, instead of nginx answering 502 until `fail_timeout`.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { nginxBin, startNginx, type RunningNginx, type SiteOptions } from '../helpers/nginx';
import { freePort } from '../helpers/postgres';
import { skipWithoutChromium, startServer, type RunningServer } from './harness';

const nginx = skipWithoutChromium ? undefined : nginxBin();
const EMPTY_FORM_STATE = JSON.stringify([{ error: null, posted: null, values: { author: '', text: '' } }]);

let servers: RunningServer[] = [];
let proxy: RunningNginx | undefined;

afterEach(async () => {
  await proxy?.stop();
  await Promise.all(servers.map((server) => server.stop('SIGKILL')));
  proxy = undefined;
  servers = [];
}, 30_000);

describe.skipIf(!nginx)('behind nginx', () => {
  test.each<NonNullable<SiteOptions['host']>>(['$http_host', '$host'])(
    'with Host %s, a no-JS post on a port of its own comes back to its page with its answer',
    async (host) => {
      servers = [await startServer('demo', { env: { SWITCHYARD_TRUST_PROXY: '1' } })];
      proxy = await startNginx(nginx!, await freePort(), [new URL(servers[0]!.url).host], { host });
      const base = proxy.url;
      const page = await (await fetch(`${base}/photos/9`)).text();
      const action = /<form[^>]*class="comment-form"[^>]*action="([^"]+)"/.exec(page)![1]!;
      const form = /<form[^>]*class="comment-form"[^>]*>([\s\S]*?)<\/form>/.exec(page)![1]!;
      const post = await fetch(base + action, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: base, referer: `${base}/photos/9` },
        body: new URLSearchParams({
          $ACTION_KEY: /name="\$ACTION_KEY" value="([^"]+)"/.exec(form)![1]!,
          $bound: EMPTY_FORM_STATE,
          photoId: '9',
          author: 'Ana',
          text: '',
        }),
      });
      expect(post.status).toBe(303);
      expect(post.headers.get('location')).toBe('/photos/9');
      const cookie = post.headers.get('set-cookie')!.split(';')[0]!;
      const back = await (await fetch(`${base}/photos/9`, { headers: { cookie } })).text();
      expect(back).toMatch(/role="alert">Write a comment first\.<\/p>/);
    },
    60_000,
  );

  test('servers that all failed once are used again as soon as they are back', async () => {
    const ports = [await freePort(), await freePort()];
    proxy = await startNginx(
      nginx!,
      await freePort(),
      ports.map((port) => `127.0.0.1:${port}`),
    );
    // Both are down (a deploy restarting them together): nginx tried each once, and says 502.
    expect((await fetch(`${proxy.url}/docs`)).status).toBe(502);
    servers = await Promise.all(ports.map((port) => startServer('demo', { port })));
    for (let i = 0; i < 4; i++) expect((await fetch(`${proxy.url}/docs`)).status).toBe(200);
  }, 60_000);
});
