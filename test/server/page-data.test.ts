/**
 * The page-data protocol: the document request with a JSON answer.
 */
import request from 'supertest';
import { describe, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import { calls } from '../fixtures/basic/layout.server';
import { basicApp, DOCUMENT_ONLY_HEADERS } from './fixture-app';

const app = createApp({ modules: basicApp, buildId: 'b1', logger: { error: vi.fn(), info: vi.fn() } });

describe('page data', () => {
  test('is JSON for the same path, never cached, and leaves out layout data the client holds', async () => {
    const res = await request(app).get('/photos/7?q=sun&_sy=%2Fphotos%2F6');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({
      buildId: 'b1',
      status: 200,
      url: '/photos/7?q=sun',
      pattern: '/photos/[id]',
      params: { id: '7' },
      searchParams: { q: 'sun' },
    });
    expect(res.body.segments[0]).toEqual({
      dir: '',
      files: { layout: 'layout.tsx', 'not-found': 'not-found.tsx' },
      reuseLayoutData: true,
    });
    expect(res.body.segments.at(-1).pageData).toMatchObject({ id: '7', q: 'sun' });
  });

  test('carries no header only a document reads; the document has them all, and both keep nosniff', async () => {
    const production = createApp({
      modules: basicApp,
      buildId: 'b1',
      mode: 'production',
      logger: { error: vi.fn(), info: vi.fn() },
    });
    const document = await request(production).get('/photos/7');
    const data = await request(production).get('/photos/7?_sy=%2Fphotos%2F6&_syp=auto');
    expect(data.headers['content-type']).toBe('application/json; charset=utf-8');
    for (const name of DOCUMENT_ONLY_HEADERS) {
      expect(document.headers[name], name).toBeDefined();
      expect(data.headers[name], name).toBeUndefined();
    }
    for (const res of [document, data]) {
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  test('an escaped slash stays in its segment for a navigation as for the document', async () => {
    const res = await request(app).get('/tags/a%2Fb/c?_sy=%2F');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ pattern: '/tags/[...path]', params: { path: ['a/b', 'c'] } });
  });

  test('a navigation that stops at the loading state (auto, with an origin) leaves out held layout data too', async () => {
    const res = await request(app).get('/photos/7?_sy=%2Fphotos%2F6&_syp=auto');
    expect(res.status).toBe(200);
    expect(res.body.segments[0]).toMatchObject({ dir: '', reuseLayoutData: true });
    expect(res.body.segments[0].layoutData).toBeUndefined();
  });

  test('a prefetch that names the page it is made from gets no layout data back that the client holds', async () => {
    for (const mode of ['auto', 'full']) {
      const res = await request(app).get(`/photos/7?_sy=%2Fphotos%2F6&_syp=${mode}`);
      expect(res.body.segments[0]).toMatchObject({ dir: '', reuseLayoutData: true });
      expect(res.body.segments[0].layoutData).toBeUndefined();
      expect(res.body.segments.at(-1).pageData).toMatchObject({ id: '7' });
    }
  });

  test('a prefetch with no origin (the client holds nothing it trusts) is answered whole', async () => {
    const res = await request(app).get('/photos/7?_sy=&_syp=full');
    expect(res.body.segments[0].layoutData).toEqual({ site: 'fixture' });
    expect(res.body.segments[0].reuseLayoutData).toBeUndefined();
  });

  test('asked whole (_syw=1), nothing is trimmed against the page it names, and _syw is not a search param of the page', async () => {
    for (const query of ['_sy=%2Fphotos%2F6&_syw=1', '_sy=%2Fphotos%2F6&_syp=auto&_syw=1']) {
      const res = await request(app).get(`/photos/7?q=sun&${query}`);
      expect(res.status).toBe(200);
      expect(res.body.segments[0].layoutData).toEqual({ site: 'fixture' });
      expect(res.body.segments[0].reuseLayoutData).toBeUndefined();
      expect(res.body.url).toBe('/photos/7?q=sun');
      expect(res.body.searchParams).toEqual({ q: 'sun' });
    }
  });

  test.each(['_syw=1', '_sy=%2F&_syw=0', '_sy=%2F&_syw=yes'])(
    '%s is a 400 that says what _syw takes',
    async (query) => {
      const res = await request(app).get(`/photos/7?${query}`);
      expect(res.status).toBe(400);
      expect(res.text).toBe('Bad Request: _syw must be 1, with _sy.');
    },
  );

  test('a refresh (no origin page) gets every segment’s data', async () => {
    const res = await request(app).get('/photos/7?_sy=');
    expect(res.body.segments[0].layoutData).toEqual({ site: 'fixture' });
    expect(res.body.segments[0].reuseLayoutData).toBeUndefined();
  });

  test('every loader runs even when its data is not sent: a skipped loader could be a skipped guard', async () => {
    const before = calls.count;
    await request(app).get('/photos/8?_sy=%2Fphotos%2F7');
    expect(calls.count).toBe(before + 1);
  });

  test('the origin page cannot be used to smuggle anything: a bogus one just means no reuse', async () => {
    for (const from of ['//evil.example/x', 'javascript:alert(1)', '/%E0%A4%A', 'x'.repeat(5000)]) {
      const res = await request(app).get(`/photos/7?_sy=${encodeURIComponent(from)}`);
      expect(res.status).toBe(200);
      expect(res.body.segments[0].layoutData).toEqual({ site: 'fixture' });
    }
  });

  test('the answer differs from the document’s by URL alone, so caches keep them apart', async () => {
    const [doc, data] = await Promise.all([
      request(app).get('/photos/7'),
      request(app).get('/photos/7?_sy='),
    ]);
    expect(doc.headers['content-type']).toContain('text/html');
    expect(data.headers['content-type']).toContain('application/json');
    // Both vary by their encoding (compression) alone, never by what the client accepts.
    expect(doc.headers.vary).toBe('accept-encoding');
    expect(data.headers.vary).toBe('accept-encoding');
  });

  test('not found: 404 with the not-found page state', async () => {
    const res = await request(app).get('/photos/404?_sy=%2F');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 404, notFound: 'not-found.tsx' });
  });

  test('a server error: 500 with the digest only', async () => {
    const res = await request(app).get('/lab/throws?_sy=%2F');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'server', digest: expect.stringMatching(/^[0-9a-f]{10}$/) });
  });

  test('the same guards: a malformed path is a 400 for page data too', async () => {
    const res = await request(app).get('/photos/%E0%A4%A?_sy=%2F');
    expect(res.status).toBe(400);
  });
});
