/**
 * The no-JS form state store: one GET of its own path, bounded in time, count and size, under a
 * token no one can guess or reuse.
 */
import express, { type Response } from 'express';
import request from 'supertest';
import { expect, test } from 'vitest';
import { FORM_STATE_MAX_BYTES, FORM_STATE_TTL_MS, FORM_STATES_HELD } from '../../shared/constants';
import { createFormStateStore, type FormState } from '../../server/render/form-state';

function harness() {
  let time = 1_000;
  const store = createFormStateStore(() => time);
  const app = express();
  app.post('/keep', (req, res) => {
    const state: FormState = [{ text: String(req.query.text ?? '') }, 'k', 'id', 0];
    res.json({ kept: store.keep(res, String(req.query.path ?? '/page'), state) });
  });
  app.get(/.*/, (req, res) => {
    res.json({ state: store.take(req, res, req.path) ?? null });
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
  // Another page first: the state waits for its own.
  expect((await request(app).get('/other').set('cookie', cookie)).body.state).toBeNull();
  const first = await request(app).get('/page').set('cookie', cookie);
  expect(first.body.state).toEqual([{ text: 'hi' }, 'k', 'id', 0]);
  expect(first.headers['set-cookie']![0]).toMatch(/^sy_form=;/);
  expect((await request(app).get('/page').set('cookie', cookie)).body.state).toBeNull();
});

test('a made-up token finds nothing', async () => {
  const { app } = harness();
  await request(app).post('/keep');
  const res = await request(app).get('/page').set('cookie', 'sy_form=guessed');
  expect(res.body.state).toBeNull();
});

test('a state expires', async () => {
  const { app, tick } = harness();
  const cookie = cookieOf(await request(app).post('/keep'));
  tick(FORM_STATE_TTL_MS);
  expect((await request(app).get('/page').set('cookie', cookie)).body.state).toBeNull();
});

test('the store is bounded: the oldest goes first, and a state too large is not kept', async () => {
  const { app, store } = harness();
  const first = cookieOf(await request(app).post('/keep'));
  // Straight to the store: a thousand HTTP round trips would test nothing more.
  const tokens: string[] = [];
  const res = { cookie: (_name: string, token: string) => tokens.push(token) } as unknown as Response;
  for (let i = 0; i < FORM_STATES_HELD; i++) store.keep(res, '/page', [i, 'k', 'id', 0]);
  expect(store.size).toBe(FORM_STATES_HELD);
  expect((await request(app).get('/page').set('cookie', first)).body.state).toBeNull();
  expect(store.keep(res, '/page', ['x'.repeat(FORM_STATE_MAX_BYTES), 'k', 'id', 0])).toBe(false);
  expect(tokens).toHaveLength(FORM_STATES_HELD);
});
