/**
 * The server's own error pages look alike and are no dead ends: a language, a title, a viewport,
 * a `<main>` and a link home on each (what axe and a phone user both need).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { expect, test, vi } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { createApp } from '../../server/create-app';
import { NO_SCRIPT_CSP } from '../../server/http/security-headers';
import { ACTION_PATH, actionUrl } from '../../shared/actions';
import { FALLBACK_CSS } from '../../shared/fallback-page';
import type { ErrorReporter } from '../../server/sentry/error-reporter';
import { basicApp } from './fixture-app';

type Logger = { error: (message: string, error?: unknown) => void; info: (message: string) => void };

const ACTIONS = Object.fromEntries(
  ['fail', 'goTo'].map((name) => [
    actionId('basic/actions.ts', name),
    () => import('../fixtures/basic/actions').then((m) => (m as Record<string, unknown>)[name]),
  ]),
);
const app = (options: { staticDir?: string; reporter?: ErrorReporter; logger?: Logger } = {}) =>
  createApp({ modules: basicApp, actions: ACTIONS, logger: { error: vi.fn(), info: vi.fn() }, ...options });
/** A form posted without JavaScript to one of the fixture's actions. */
const postForm = (name: string, fields: Record<string, string> = {}) =>
  request(app())
    .post(actionUrl(actionId('basic/actions.ts', name)))
    .set('host', '127.0.0.1')
    .set('origin', 'http://127.0.0.1')
    .type('form')
    .send(fields);

test.each([
  ['a render that failed before its shell', '/lab/throws', 500, 'Application error'],
  [
    'a refused redirect target',
    `/signals/redirect?to=${encodeURIComponent('//evil.example')}`,
    400,
    'Bad request',
  ],
])('%s: a whole page with a way home', async (_, path, status, title) => {
  const res = await request(app()).get(path);
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).toMatch(/^<!DOCTYPE html><html lang="en">/);
  expect(res.text).toContain(`<title>${title}</title>`);
  expect(res.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  expect(res.text).toMatch(/<main>[\s\S]*<a href="\/">Go to the home page<\/a>[\s\S]*<\/main>/);
  // The site's font and colours, inline (the policy allows nothing else), and nothing to load.
  expect(res.text).toContain(`<style>${FALLBACK_CSS}</style>`);
  expect(res.text).not.toMatch(/<link|<img|<script|url\(|@import/);
});

test('the refused redirect page says why, and nothing of the target', async () => {
  const res = await request(app()).get(`/signals/redirect?to=${encodeURIComponent('//evil.example/<x>')}`);
  expect(res.text).toContain('the redirect target is not a path on this site.');
  expect(res.text).not.toContain('evil.example');
});

test('production never shows the error itself, only its digest', async () => {
  const res = await request(app()).get('/lab/throws');
  expect(res.text).not.toContain('load exploded');
  expect(res.text).not.toContain('Error details');
});

test.each([
  ['a render that failed before its shell', () => request(app()).get('/lab/throws'), 500],
  [
    'a refused redirect target',
    () => request(app()).get(`/signals/redirect?to=${encodeURIComponent('//evil.example')}`),
    400,
  ],
  ['an action that failed, posted without JavaScript', () => postForm('fail'), 500],
  [
    'an action whose redirect target is refused',
    () => postForm('goTo', { $bound: JSON.stringify(['//evil.example']) }),
    400,
  ],
  [
    'an action id that does not decode (the last resort for a client error)',
    () => request(app()).post(`${ACTION_PATH}%zz`).set('host', '127.0.0.1').set('origin', 'http://127.0.0.1'),
    400,
  ],
])('%s: a policy under which nothing runs', async (_, send, status) => {
  const res = await send();
  expect(res.status).toBe(status);
  expect(res.headers['content-security-policy']).toBe(NO_SCRIPT_CSP);
});

test('page data is JSON, which runs nowhere: no policy to add to every prefetch', async () => {
  const res = await request(app()).get('/photos/1?_sy=%2F');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['content-security-policy']).toBeUndefined();
  // A document, and an error page on the same path, still carry theirs.
  const page = await request(app()).get('/photos/1');
  expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'nonce-/);
  const failed = await request(app()).get('/lab/throws?not_sy=1');
  expect(failed.headers['content-security-policy']).toBe(NO_SCRIPT_CSP);
});

test('the last resort, a file that vanished after start-up: a bare 500 with the policy, logged and reported with its digest', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-vanished-'));
  try {
    writeFileSync(join(dir, 'gone.txt'), 'here at start-up');
    const reporter = { report: vi.fn() };
    const logger = { error: vi.fn(), info: vi.fn() };
    const server = app({ staticDir: dir, reporter, logger });
    rmSync(join(dir, 'gone.txt'));
    const res = await request(server).get('/gone.txt');
    expect(res.status).toBe(500);
    expect(res.text).toBe('Internal Server Error: the server failed to answer; the log says why.');
    expect(res.headers['content-security-policy']).toBe(NO_SCRIPT_CSP);
    // The server's own fault reaches the error tracker as app errors do, whatever Sentry traces.
    expect(reporter.report).toHaveBeenCalledTimes(1);
    const [error, context] = reporter.report.mock.calls[0]!;
    expect(context).toEqual({
      route: null,
      digest: expect.stringMatching(/^[0-9a-f]{10}$/),
      source: 'server',
    });
    expect(logger.error).toHaveBeenCalledWith(
      `[switchyard] unhandled error, GET /gone.txt, digest ${context.digest}`,
      error,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the policy allows nothing but inline styles, and no framing', () => {
  expect(NO_SCRIPT_CSP).toBe(
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
});
