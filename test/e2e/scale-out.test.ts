/**
 * The demo as a deployment runs it: two `switchyard start` processes behind nginx (round robin)
 * on one PostgreSQL, all real and all on 127.0.0.1. What one process writes the other reads,
 * six users' likes set at once through both end exact, the comment limit counts posts through both, paging and a no-JS
 * form's answer carry from one to the other, a database outage is a 503 to retry, and killing
 * one process under load loses no acknowledged comment while the other keeps serving.
 */
import { request as httpRequest } from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { actionUrl } from '../../shared/actions';
import { actionId } from '../../server/actions/action-registry';
import { getPhoto } from '../../src/lib/photos';
import { KEEPERS, setLikesAtOnce, USERS } from '../helpers/likes-at-once';
import { nginxBin, startNginx, type RunningNginx } from '../helpers/nginx';
import { freePort, postgresBin, startTempPostgres, type TempPostgres } from '../helpers/postgres';
import { sessionCookie, TEST_SECRET } from '../helpers/session-cookie';
import { skipWithoutChromium, startServer, type RunningServer } from './harness';

const bins = skipWithoutChromium ? undefined : { postgres: postgresBin(), nginx: nginxBin() };
const LIKE = actionUrl(actionId('lib/actions.ts', 'setLiked'));
const COMMENT = actionUrl(actionId('lib/actions.ts', 'addComment'));
const EMPTY_FORM_STATE = JSON.stringify([{ error: null, posted: null, values: { author: '', text: '' } }]);
/** Comments per client per hour: more than the rest of the suite posts from 127.0.0.1. */
const COMMENT_LIMIT = 100;
const COMMENT_WINDOW_S = 3600;

let database: TempPostgres | undefined;
let servers: RunningServer[] = [];
/** Servers a test already stopped: their exit has passed, so stopping again would wait forever. */
const stopped = new Set<RunningServer>();
let proxy: RunningNginx | undefined;

/** Calls an action as the client runtime does, through `base`; the answer's status and value. */
async function callAction(base: string, path: string, fields: Record<string, string>, cookie = '') {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { origin: base, 'x-switchyard-action': '1', connection: 'close', cookie },
    body: new URLSearchParams(fields),
  });
  const type = response.headers.get('content-type') ?? '';
  const body = type.includes('json')
    ? ((await response.json()) as { value?: unknown })
    : await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body };
}

/** Ada likes the photo. */
const like = (base: string, photoId: string) =>
  callAction(
    base,
    LIKE,
    { $bound: '[{"liked":false,"count":0}]', photoId, liked: '1' },
    sessionCookie('ada'),
  );
const comment = (base: string, photoId: string, text: string) =>
  callAction(base, COMMENT, { $bound: EMPTY_FORM_STATE, photoId, author: 'scale', text });

async function sql<Row extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: database!.url });
  await client.connect();
  try {
    return (await client.query<Row>(text, values)).rows;
  } finally {
    await client.end();
  }
}

describe.skipIf(!bins?.postgres || !bins.nginx)('two servers behind nginx on one PostgreSQL', () => {
  beforeAll(async () => {
    database = await startTempPostgres(bins!.postgres!);
    const env = {
      DATABASE_URL: database.url,
      SWITCHYARD_TRUST_PROXY: '1',
      SWITCHYARD_ACTION_RATE_LIMIT: 'off',
      DEMO_COMMENT_LIMIT: `${COMMENT_LIMIT}/${COMMENT_WINDOW_S}`,
      // Two processes as two machines would be: a no-JS form's answer signed by one is read by the other.
      SWITCHYARD_SECRET: TEST_SECRET,
    };
    servers = await Promise.all([startServer('demo', { env }), startServer('demo', { env })]);
    proxy = await startNginx(
      bins!.nginx!,
      await freePort(),
      servers.map((server) => new URL(server.url).host),
    );
  }, 120_000);
  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(
      servers.filter((server) => !stopped.has(server)).map((server) => server.stop('SIGKILL')),
    );
    database?.destroy();
  }, 60_000);

  test('a comment posted through one server is read through the other, and through nginx', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const posted = await comment(a.url, '14', 'written through a');
    expect(posted).toMatchObject({ status: 200, body: { value: { error: null } } });
    expect(await (await fetch(`${b.url}/photos/14`)).text()).toContain('written through a');
    expect((await comment(proxy!.url, '14', 'written through nginx')).status).toBe(200);
    for (const base of [a.url, b.url, proxy!.url, proxy!.url]) {
      expect(await (await fetch(`${base}/photos/14`)).text()).toContain('written through nginx');
    }
  });

  test('six users setting their likes at once through both servers and nginx end exact', async () => {
    const photo = '12';
    const cookies = Object.fromEntries(USERS.map((handle) => [handle, sessionCookie(handle)]));
    const answers = await setLikesAtOnce([servers[0]!.url, servers[1]!.url, proxy!.url], photo, cookies);
    expect(answers.filter((a) => a.status !== 200 || a.value?.liked !== a.wanted)).toEqual([]);
    const base = getPhoto(photo)!.likes;
    const [row] = await sql<{ count: number }>('SELECT count FROM likes WHERE photo_id = $1', [photo]);
    expect(row!.count).toBe(base + KEEPERS.length);
    const likers = await sql<{ handle: string }>(
      'SELECT handle FROM user_likes WHERE photo_id = $1 ORDER BY handle',
      [photo],
    );
    expect(likers.map((r) => r.handle)).toEqual([...KEEPERS].sort());
    // Each server shows that count, and each user's like as it is.
    for (const [server, handle] of [
      [servers[0]!, 'ada'],
      [servers[1]!, 'noor'],
    ] as const) {
      const page = await (
        await fetch(`${server.url}/photos/${photo}`, { headers: { cookie: cookies[handle]! } })
      ).text();
      expect(page).toContain(
        `<span class="like-count">${(base + KEEPERS.length).toLocaleString('en-US')}</span>`,
      );
      expect(page).toContain(`aria-pressed="${handle === 'ada'}"`);
    }
  });

  test('the comment limit counts the posts of one client through both servers together', async () => {
    // Through nginx from another loopback address: a client of its own, by the address nginx saw.
    const postFrom = (n: number) =>
      new Promise<{ status: number; error: unknown }>((resolve, reject) => {
        const body = new URLSearchParams({
          $bound: EMPTY_FORM_STATE,
          photoId: '16',
          author: 'limited',
          text: `limited ${n}`,
        }).toString();
        const target = new URL(COMMENT, proxy!.url);
        const req = httpRequest(
          target,
          {
            method: 'POST',
            localAddress: '127.0.0.2',
            headers: {
              origin: proxy!.url,
              'x-switchyard-action': '1',
              'content-type': 'application/x-www-form-urlencoded',
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => {
              const answer = JSON.parse(text) as { value?: { error: unknown } };
              resolve({ status: res.statusCode!, error: answer.value?.error });
            });
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    // The limit counts in fixed windows of the servers' clock, which is this machine's: which
    // window the burst began and ended in says what must hold.
    const windowOf = (ms: number) => Math.floor(ms / (COMMENT_WINDOW_S * 1000));
    const firstWindow = windowOf(Date.now());
    const posts = COMMENT_LIMIT + 2;
    const answers: { status: number; error: unknown }[] = [];
    for (let n = 0; n < posts; n += 6) {
      const batch = Array.from({ length: Math.min(6, posts - n) }, (_, i) => postFrom(n + i));
      answers.push(...(await Promise.all(batch)));
    }
    const lastWindow = windowOf(Date.now());
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const stored = answers.filter((answer) => answer.error === null).length;
    const refused = answers.filter((answer) =>
      String(answer.error).startsWith(`You can post ${COMMENT_LIMIT} comments`),
    ).length;
    expect(stored + refused).toBe(posts);
    if (firstWindow === lastWindow) {
      expect(stored).toBe(COMMENT_LIMIT);
    } else {
      // Across a window's edge each side counts to the limit: at least the limit, at most twice.
      expect(stored).toBeGreaterThanOrEqual(COMMENT_LIMIT);
      expect(stored).toBeLessThanOrEqual(2 * COMMENT_LIMIT);
    }
    // Round robin spread them over both servers: each alone would have taken all of them.
    const [row] = await sql<{ n: number }>(
      "SELECT count(*)::integer AS n FROM comments WHERE author = 'limited'",
    );
    expect(row!.n).toBe(stored);
  });

  test('comment pages: the first from one server, the next from the other', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    await sql(
      "INSERT INTO comments (photo_id, author, text) SELECT '17', 'pager', 'paged ' || n FROM generate_series(0, 24) AS n",
    );
    const first = await (await fetch(`${a.url}/photos/17`)).text();
    expect(first).toContain('paged 24');
    expect(first).not.toContain('paged 4<');
    const older = /href="(\/photos\/17\?before=\d+)"[^>]*>Older comments</.exec(first)?.[1];
    expect(older).toBeDefined();
    const second = await (await fetch(b.url + older!)).text();
    for (let n = 0; n < 5; n++) expect(second).toContain(`paged ${n}<`);
    expect(second).not.toContain('paged 5<');
    expect(second).toContain('>Newest comments</a>');
    // The position is a comment id in the URL, checked by the page's search schema: anything but
    // a whole number is a 400 that names the parameter.
    for (const before of ['abc', '-1', '1e9', '9'.repeat(40), '%00']) {
      const page = await fetch(`${b.url}/photos/17?before=${before}`);
      expect(page.status).toBe(400);
      expect(await page.text()).toContain('before: Expected a comment id');
    }
  });

  test('a no-JS form posted to one server comes back with its answer from the other', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const page = await (await fetch(`${a.url}/photos/18`)).text();
    const action = /<form[^>]*class="comment-form"[^>]*action="([^"]+)"/.exec(page)![1]!;
    const form = /<form[^>]*class="comment-form"[^>]*>([\s\S]*?)<\/form>/.exec(page)![1]!;
    const key = /name="\$ACTION_KEY" value="([^"]+)"/.exec(form)![1]!;
    const post = await fetch(a.url + action, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: a.url, referer: `${a.url}/photos/18` },
      body: new URLSearchParams({
        $ACTION_KEY: key,
        $bound: EMPTY_FORM_STATE,
        photoId: '18',
        author: 'Lin',
        text: '',
      }),
    });
    expect(post.status).toBe(303);
    const cookie = post.headers.get('set-cookie')!.split(';')[0]!;
    const back = await (await fetch(`${b.url}/photos/18`, { headers: { cookie } })).text();
    expect(back).toMatch(/role="alert">Write a comment first\.<\/p>/);
    expect(back).toMatch(/<input[^>]*name="author"[^>]*value="Lin"/);
    // A cookie no server of this deployment signed: the page as it is, never an error.
    const forged = await fetch(`${b.url}/photos/18`, { headers: { cookie: `${cookie.slice(0, -4)}AAAA` } });
    expect(forged.status).toBe(200);
    expect(await forged.text()).not.toContain('Write a comment first.');
  });

  test('while PostgreSQL is down, pages and actions answer 503 with Retry-After; then they work again', async () => {
    database!.stop();
    try {
      const page = await fetch(`${proxy!.url}/photos/3`);
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toBe('2');
      expect(await page.text()).toContain('The database cannot be reached');
      expect(await like(proxy!.url, '3')).toMatchObject({ status: 503, retryAfter: '2' });
    } finally {
      database!.start();
    }
    for (const server of servers) expect((await fetch(`${server.url}/photos/3`)).status).toBe(200);
    expect((await like(proxy!.url, '3')).status).toBe(200);
  });

  test('killing one server under load loses no acknowledged comment; the other keeps serving', async () => {
    const acknowledged: string[] = [];
    const afterKill: number[] = [];
    let killed: Promise<void> | undefined;
    let gone = false;
    let next = 0;
    // Four clients post 60 comments in turn; the first server dies once 10 are acknowledged.
    const client = async () => {
      for (let n = next++; n < 60; n = next++) {
        const startedAfterKill = gone;
        const text = `under load ${n}`;
        const answer = await comment(proxy!.url, '15', text).catch(() => ({ status: 0, body: undefined }));
        if (answer.status === 200) acknowledged.push(text);
        if (startedAfterKill) afterKill.push(answer.status);
        if (acknowledged.length === 10 && !killed) {
          stopped.add(servers[0]!);
          killed = servers[0]!.stop('SIGKILL').then(() => void (gone = true));
          await killed;
        }
      }
    };
    await Promise.all([client(), client(), client(), client()]);
    expect(gone).toBe(true);
    expect(afterKill.length).toBeGreaterThan(0);
    expect(afterKill.filter((status) => status !== 200)).toEqual([]);
    const stored = (await sql<{ text: string }>("SELECT text FROM comments WHERE photo_id = '15'")).map(
      (r) => r.text,
    );
    expect(acknowledged.filter((text) => !stored.includes(text))).toEqual([]);
    for (let i = 0; i < 4; i++) expect((await fetch(`${proxy!.url}/photos/15`)).status).toBe(200);
  });
});
