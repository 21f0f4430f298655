/**
 * Parallel slots and intercepted routes on the server, through `createApp`.
 */
import request from 'supertest';
import { describe, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import { slotsApp } from './fixture-app';

const app = createApp({ modules: slotsApp, buildId: 'b1', logger: { error: vi.fn(), info: vi.fn() } });

describe('slots on a document request', () => {
  test('a slot with no match renders its default.tsx; one that matches renders its page', async () => {
    const feed = await request(app).get('/');
    expect(feed.status).toBe(200);
    expect(feed.text).toContain('<aside id="side"><p>side default</p></aside>');
    expect(feed.text).toContain('<div id="modal"></div>');
    const info = await request(app).get('/info');
    expect(info.text).toContain('<h1>Info</h1>');
    expect(info.text).toContain('<aside id="side"><p>side info</p></aside>');
  });

  test('a document request never intercepts: the full page, no modal', async () => {
    const res = await request(app).get('/photos/3');
    expect(res.status).toBe(200);
    expect(res.text).toContain('full page: photo 3');
    expect(res.text).not.toContain('role="dialog"');
  });

  test('a slot with neither a match nor a default.tsx makes the page a 404', async () => {
    const res = await request(app).get('/broken');
    expect(res.status).toBe(404);
    expect((await request(app).get('/broken/x')).status).toBe(404); // no main page there either
  });
});

describe('intercepted page data', () => {
  test('from inside the owner’s scope: the slot alone, marked intercepted', async () => {
    const res = await request(app).get('/photos/3?_sy=%2F');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      buildId: 'b1',
      url: '/photos/3',
      status: 200,
      intercept: {
        at: '(feed)',
        slot: 'modal',
        state: {
          shows: 'page',
          intercepted: true,
          params: { id: '3' },
          segments: [
            { dir: '(feed)/@modal', files: {} },
            { dir: '(feed)/@modal/(.)photos', files: {} },
            {
              dir: '(feed)/@modal/(.)photos/[id]',
              files: { page: '(feed)/@modal/(.)photos/[id]/page.tsx' },
              pageData: { title: 'photo 3' },
            },
          ],
          // What it changes in the head of the page under it, ready made: a tag, a key emptied.
          head: [
            { key: 'title', tag: 'title', attributes: {}, text: 'photo 3 · over the feed' },
            { key: 'name:description' },
          ],
        },
      },
    });
  });

  test('a prefetch from inside the scope gets the intercepted variant too', async () => {
    const res = await request(app).get('/photos/3?_sy=%2Finfo&_syp=auto');
    expect(res.body.intercept).toMatchObject({ at: '(feed)', slot: 'modal' });
  });

  test.each([
    ['from outside the scope', '/photos/3?_sy=%2Ftags'],
    ['a refresh, which names no page', '/photos/3?_sy='],
    ['the rest of a page behind its loading state', '/photos/3?_sy=%2F&_syp=rest'],
    ['an origin that is not a path', '/photos/3?_sy=https%3A%2F%2Fevil.example%2F'],
  ])('%s: the plain page', async (_name, url) => {
    const res = await request(app).get(url);
    expect(res.status).toBe(200);
    expect(res.body.intercept).toBeUndefined();
    expect(res.body.pattern).toBe('/photos/[id]');
    expect(res.body.segments.at(-1).pageData).toEqual({ title: 'photo 3' });
  });

  test('an intercepted route whose loader says not found gives way to the plain 404', async () => {
    const res = await request(app).get('/photos/404?_sy=%2F');
    expect(res.status).toBe(404);
    expect(res.body.intercept).toBeUndefined();
    expect(res.body.status).toBe(404);
  });

  test('a plain answer inside the scope says which slot shows its default', async () => {
    const res = await request(app).get('/info?_sy=%2Fphotos%2F3');
    const feed = res.body.segments.find((s: { dir: string }) => s.dir === '(feed)');
    expect(feed.slots.modal).toMatchObject({ shows: 'default' });
    expect(feed.slots.side).toMatchObject({ shows: 'page' });
  });
});
