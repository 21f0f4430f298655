/**
 * `error.tsx` around `load` functions over HTTP: a failed loader renders the nearest boundary
 * that wraps its segment, inside the layouts above it, with a 500 and the digest the log has.
 */
import request from 'supertest';
import { expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import { basicApp } from './fixture-app';

function app() {
  const logger = { error: vi.fn(), info: vi.fn() };
  const reporter = { report: vi.fn() };
  return { app: createApp({ modules: basicApp, logger, reporter }), logger, reporter };
}

const digestIn = (html: string) => /digest (?:<!-- -->)?([0-9a-f]{10})/.exec(html)?.[1];

test("a page's failed load is caught by its own segment's error.tsx, inside the layouts above", async () => {
  const { app: server, logger, reporter } = app();
  const res = await request(server).get('/caught/page-load');
  expect(res.status).toBe(500);
  expect(res.text).toContain('<html lang="en">');
  expect(res.text).toContain('<section id="caught-layout">');
  expect(res.text).toContain('id="caught-own"');
  expect(res.text).not.toContain('never shown');
  expect(res.text).not.toContain('private detail');
  const digest = digestIn(res.text);
  expect(digest).toMatch(/^[0-9a-f]{10}$/);
  expect(logger.error).toHaveBeenCalledTimes(1);
  expect(logger.error.mock.calls[0]![0]).toBe(
    `[switchyard] GET /caught/page-load load failed, digest ${digest}`,
  );
  expect(reporter.report).toHaveBeenCalledTimes(1);
  expect(reporter.report.mock.calls[0]![1]).toEqual({ route: '/caught/page-load', digest, source: 'load' });
  // The page state tells the client the same, so hydration renders the same fallback.
  expect(res.text).toContain(`"error":{"digest":"${digest}"}`);
});

test("a layout's failed load is caught one segment up: a boundary never wraps its own layout", async () => {
  const res = await request(app().app).get('/caught/layout-load');
  expect(res.status).toBe(500);
  expect(res.text).toContain('id="caught-at"');
  expect(res.text).not.toContain('wrong-boundary');
  expect(res.text).toContain('<section id="caught-layout">');
});

test('page data for a caught load error is a 500 with the digest: the client loads the document', async () => {
  const res = await request(app().app).get('/caught/page-load?_sy=%2F');
  expect(res.status).toBe(500);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.body).toEqual({ error: 'server', digest: expect.stringMatching(/^[0-9a-f]{10}$/) });
});

test('with no error.tsx above the loader, the bare 500 page stays', async () => {
  const res = await request(app().app).get('/lab/throws');
  expect(res.status).toBe(500);
  expect(res.text).toContain('Application error: a server-side exception has occurred');
});
