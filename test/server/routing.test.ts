/**
 * The routing fixture on the server, through `createApp`: which interceptor answers, what a
 * slot with no match sends, and a target with the pathname it starts from.
 */
import request from 'supertest';
import { describe, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import { routingApp } from './fixture-app';

const app = createApp({ modules: routingApp, buildId: 'b1', logger: { error: vi.fn(), info: vi.fn() } });

type Slots = Record<string, { shows: string; segments: { dir: string; files: object }[] }>;
const slotsOf = (body: { segments: { dir: string; slots?: Slots }[] }, dir: string) =>
  body.segments.find((s) => s.dir === dir)!.slots!;

describe('interceptors compete as routes do', () => {
  test.each([
    ['/blog/test', 'blog/@m/(.)test/page.tsx'],
    ['/blog/other', 'blog/@m/(.)[slug]/page.tsx'],
  ])('%s from /blog: %s', async (url, page) => {
    const res = await request(app).get(`${url}?_sy=%2Fblog`);
    expect(res.status).toBe(200);
    expect(res.body.intercept.state.segments.at(-1).files).toEqual({ page });
  });
});

describe('a URL that only a slot matches', () => {
  test('a document is a 404: a slot there has neither a match nor a default.tsx', async () => {
    const res = await request(app).get('/ptb/view-duration');
    expect(res.status).toBe(404);
  });

  test('page data: children show the layout’s default, the matching slot its page, the other is unmatched', async () => {
    const res = await request(app).get('/ptb/view-duration?_sy=%2Fptb');
    expect(res.status).toBe(200);
    const ptb = res.body.segments.at(-1);
    expect(ptb.files).toEqual({ layout: 'ptb/layout.tsx', default: 'ptb/default.tsx' });
    expect(res.body.slotOnly).toBe(true);
    const slots = slotsOf(res.body, 'ptb');
    expect(slots.views).toMatchObject({ shows: 'page' });
    expect(slots.views!.segments.at(-1)!.files).toEqual({ page: 'ptb/@views/view-duration/page.tsx' });
    expect(slots.audience).toEqual({ shows: 'unmatched', segments: [], params: {} });
  });

  test('a slot of nested layouts and a slot through a group', async () => {
    const res = await request(app).get('/nested/subroute?_sy=%2Fnested');
    const slots = slotsOf(res.body, 'nested');
    expect(slots.slot!.segments.map((s) => s.files)).toEqual([
      {},
      { layout: 'nested/@slot/subroute/layout.tsx', page: 'nested/@slot/subroute/page.tsx' },
    ]);
    expect(slots.groupslot).toMatchObject({ shows: 'unmatched' });
    expect((await request(app).get('/nested/subroute')).status).toBe(404);
    const home = await request(app).get('/nested');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Group slot page');
  });

  test('a document shows the children’s default.tsx where only a slot matched, or is a 404 with none', async () => {
    const tabs = await request(app).get('/tabs/settings');
    expect(tabs.status).toBe(200);
    expect(tabs.text).toContain('<p id="tabs-default">');
    expect(tabs.text).toContain('<p id="panel-settings">');
    expect((await request(app).get('/bare/settings')).status).toBe(404);
    // Page data leaves the children to the client, which keeps what they showed.
    const bare = await request(app).get('/bare/settings?_sy=%2Fbare');
    expect(bare.status).toBe(200);
    expect(bare.body).toMatchObject({ slotOnly: true, pattern: '/bare' });
    expect(bare.body.segments.at(-1).files).toEqual({ layout: 'bare/layout.tsx' });
  });

  test('a URL nothing matches, not even a slot, is still a 404 for page data', async () => {
    const res = await request(app).get('/ptb/nowhere?_sy=%2Fptb');
    expect(res.status).toBe(404);
  });
});

describe('a target with the pathname it starts from', () => {
  test('is not intercepted: the plain page with its new search params', async () => {
    const res = await request(app).get('/isp/search?q=test&_sy=%2Fisp%2Fsearch');
    expect(res.body.intercept).toBeUndefined();
    expect(res.body.searchParams).toEqual({ q: 'test' });
    expect(res.body.segments.at(-1).files).toEqual({ page: 'isp/search/page.tsx' });
  });

  test('from elsewhere in the scope it is intercepted', async () => {
    const res = await request(app).get('/isp/search?_sy=%2Fisp');
    expect(res.body.intercept).toMatchObject({ at: 'isp', slot: 'modal' });
  });
});
