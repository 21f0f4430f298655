/**
 * The server's own error pages look alike and are no dead ends: a language, a title, a viewport,
 * a `<main>` and a link home on each (what axe and a phone user both need).
 */
import request from 'supertest';
import { expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import { basicApp } from './fixture-app';

const app = () => createApp({ modules: basicApp, logger: { error: vi.fn(), info: vi.fn() } });

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
  expect(res.text).toMatch(/<main style="[^"]+">[\s\S]*<a href="\/">Go to the home page<\/a>[\s\S]*<\/main>/);
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
