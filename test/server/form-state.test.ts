/**
 * The no-JS form state cookie: one GET of its own page, read by any store with the same secret,
 * bounded in time and size, `Secure` when the post came over https; a forged, altered, foreign
 * or malformed cookie is ignored, never an error.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import express from 'express';
import request from 'supertest';
import { expect, test } from 'vitest';
import { FORM_STATE_COOKIE_MAX_BYTES, FORM_STATE_TTL_MS } from '../../shared/constants';
import { createFormStateStore, type FormState } from '../../server/render/form-state';

const SECRET = 'a-secret-of-the-deployment-0123456789';

function harness(secret = SECRET, trustProxy = false) {
  let time = 1_000;
  const store = createFormStateStore({ now: () => time, secret, trustProxy });
  const app = express();
  app.post('/keep', (req, res) => {
    const state: FormState = [{ text: String(req.query.text ?? '') }, 'k', 'id', 0];
    res.json({ kept: store.keep(req, res, String(req.query.path ?? '/page'), state) });
  });
  app.get(/.*/, (req, res) => {
    // As the document handler does: the request's URL with the framework's parameters taken out.
    const url = new URL(req.originalUrl, 'http://localhost');
    url.searchParams.delete('_data');
    res.json({ state: store.take(req, res, url.pathname + url.search) ?? null });
  });
  return { app, store, tick: (ms: number) => (time += ms) };
}

const cookieOf = (res: request.Response) => String(res.headers['set-cookie']?.[0] ?? '').split(';')[0]!;

test('a kept state is given to one GET of its path, then the cookie is cleared', async () => {
  const { app } = harness();
  const kept = await request(app).post('/keep?text=hi');
  const cookie = cookieOf(kept);
  expect(kept.headers['set-cookie']![0]).toMatch(/HttpOnly/);
  expect(kept.headers['set-cookie']![0]).toMatch(/SameSite=Lax/);
  expect(kept.headers['set-cookie']![0]).toMatch(new RegExp(`Max-Age=${FORM_STATE_TTL_MS / 1000}`));
  // Sent with that page's requests only, not with every asset for a minute.
  expect(kept.headers['set-cookie']![0]).toMatch(/; Path=\/page;/);
  // Another page first: the state waits for its own.
  expect((await request(app).get('/other').set('cookie', cookie)).body.state).toBeNull();
  const first = await request(app).get('/page').set('cookie', cookie);
  expect(first.body.state).toEqual([{ text: 'hi' }, 'k', 'id', 0]);
  expect(first.headers['set-cookie']![0]).toMatch(/^sy_form=; Path=\/page;/);
});

test('a page path a cookie attribute cannot hold: Path=/ instead, never an error', async () => {
  const { app } = harness();
  for (const path of ['/a;b', '/ü', '/a<b', '/p?x=1']) {
    const kept = await request(app).post(`/keep?path=${encodeURIComponent(path)}`);
    expect(kept.status).toBe(200);
    expect(kept.headers['set-cookie']![0]).toMatch(path === '/p?x=1' ? /; Path=\/p;/ : /; Path=\/;/);
  }
});

test('another process with the same secret reads it; one with another secret does not', async () => {
  const cookie = cookieOf(await request(harness().app).post('/keep?text=across'));
  const same = await request(harness().app).get('/page').set('cookie', cookie);
  expect(same.body.state).toEqual([{ text: 'across' }, 'k', 'id', 0]);
  const other = await request(harness('another-secret-of-another-deployment').app)
    .get('/page')
    .set('cookie', cookie);
  expect(other.body.state).toBeNull();
  expect(other.headers['set-cookie']![0]).toMatch(/^sy_form=;/);
});

test('a state expires', async () => {
  const { app, tick } = harness();
  const cookie = cookieOf(await request(app).post('/keep'));
  tick(FORM_STATE_TTL_MS);
  expect((await request(app).get('/page').set('cookie', cookie)).body.state).toBeNull();
});

test('forged, altered and malformed cookies are ignored and cleared, never an error', async () => {
  const { app } = harness();
  const [payload, mac] = cookieOf(await request(app).post('/keep?text=hi'))
    .slice('sy_form='.length)
    .split('.');
  const script = '</script><script>alert(1)</script>';
  const forged = Buffer.from(
    JSON.stringify({ path: '/page', expires: 9e15, state: [{ text: script }, 'k', 'id', 0] }),
  ).toString('base64url');
  const formKey = Buffer.from(hkdfSync('sha256', SECRET, '', 'switchyard form state', 32));
  const signedNotJson = (text: string) => {
    const body = Buffer.from(text).toString('base64url');
    return `${body}.${createHmac('sha256', formKey).update(body).digest('base64url')}`;
  };
  const real = Buffer.from(
    JSON.stringify({ path: '/page', expires: 9e15, state: [{ text: 'hi' }, 'k', 'id', 0] }),
  ).toString('base64url');
  for (const value of [
    `${forged}.${mac}`, // someone else's state under a real signature
    `${forged}.`, // no signature
    `${payload}.${mac!.slice(0, -2)}AA`, // an altered signature
    `${payload}.${mac}.${mac}`,
    'guessed',
    '%E0%A4%A',
    '.'.repeat(10_000),
    signedNotJson('null'), // our signature on what no store writes: still not a state
    signedNotJson('{"path":"/page","expires":9e15,"state":{"0":1}}'),
    signedNotJson('{"path":"/page","expires":9e15,"state":[1,2,3,4]}'),
    // The secret itself is not the key: what it signs for another use is not a form state.
    `${real}.${createHmac('sha256', SECRET).update(real).digest('base64url')}`,
  ]) {
    const res = await request(app).get('/page').set('cookie', `sy_form=${value}`);
    expect(res.status).toBe(200);
    expect(res.body.state).toBeNull();
    expect(res.headers['set-cookie']![0]).toMatch(/^sy_form=;/);
  }
});

test('a state too large for a cookie is not kept', async () => {
  const { app } = harness();
  const res = await request(app).post(`/keep?text=${'x'.repeat(FORM_STATE_COOKIE_MAX_BYTES)}`);
  expect(res.body.kept).toBe(false);
  expect(res.headers['set-cookie']).toBeUndefined();
  const small = await request(app).post(`/keep?text=${'x'.repeat(1_000)}`);
  expect(small.body.kept).toBe(true);
  expect(cookieOf(small).length).toBeLessThanOrEqual(FORM_STATE_COOKIE_MAX_BYTES + 'sy_form='.length);
});

test('the page is its pathname and its parameters, however the search string is written', async () => {
  const { app } = harness();
  // The Referer keeps the search as typed; the request's URL is written anew once a parameter is
  // taken out of it: `?tag` becomes `?tag=`, `?sort=a,b` becomes `?sort=a%2Cb`.
  for (const [kept, asked] of [
    ['/photos/3?tag', '/photos/3?tag&_data=1'],
    ['/photos/3?sort=a,b', '/photos/3?sort=a,b&_data=1'],
    ['/photos/3?q=a b', '/photos/3?q=a+b'],
    ['/photos/3?', '/photos/3'],
  ] as const) {
    const cookie = cookieOf(await request(app).post(`/keep?text=hi&path=${encodeURIComponent(kept)}`));
    const res = await request(app).get(asked).set('cookie', cookie);
    expect([kept, res.body.state]).toEqual([kept, [{ text: 'hi' }, 'k', 'id', 0]]);
  }
  // Other parameters are another page: the state waits for its own.
  const cookie = cookieOf(await request(app).post(`/keep?path=${encodeURIComponent('/photos/3?tag=a')}`));
  for (const other of ['/photos/3?tag=b', '/photos/3', '/photos/3?tag=a&x']) {
    expect((await request(app).get(other).set('cookie', cookie)).body.state).toBeNull();
  }
});

test("Secure when the post came over https: by the proxy's word only when the proxy is trusted", async () => {
  const setCookie = async (trustProxy: boolean, proto?: string) => {
    const post = request(harness(SECRET, trustProxy).app).post('/keep');
    return String((await (proto ? post.set('x-forwarded-proto', proto) : post)).headers['set-cookie']![0]);
  };
  expect(await setCookie(false)).not.toMatch(/; Secure/);
  expect(await setCookie(true, 'http')).not.toMatch(/; Secure/);
  // Anyone may send the header: without a proxy that sets it, it says nothing.
  expect(await setCookie(false, 'https')).not.toMatch(/; Secure/);
  expect(await setCookie(true, 'https')).toMatch(/; Secure/);
  expect(await setCookie(true, 'https, http')).toMatch(/; Secure/);

  // The cookie is cleared with the attributes it was set with.
  const { app } = harness(SECRET, true);
  const cookie = cookieOf(await request(app).post('/keep').set('x-forwarded-proto', 'https'));
  const taken = await request(app).get('/page').set('cookie', cookie).set('x-forwarded-proto', 'https');
  expect(taken.headers['set-cookie']![0]).toMatch(/^sy_form=; Path=\/page;.*; Secure/);
});
