/**
 * The demo's visitor pages over HTTP, as a visitor sees them: no developer controls in the
 * site's chrome (the lab is one footer link away), an invitation where a photo has no comments,
 * and no tag card that is a lone chip in an empty box.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createApp } from '../../server/create-app';
import type { Store } from '../../src/lib/store-contract';
import { TEST_SECRET } from '../helpers/session-cookie';
import { demoApp } from './fixture-app';

let dir: string;
let app: ReturnType<typeof createApp>;
let store: Store;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-demo-pages-'));
  vi.stubEnv('SWITCHYARD_DATA_DIR', dir);
  store = await (await import('../../src/lib/db.server')).store();
  app = createApp({ modules: demoApp, secret: TEST_SECRET, logger: { error: vi.fn(), info: vi.fn() } });
});
afterAll(async () => {
  await store.close();
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

const page = async (path: string) => {
  const res = await request(app).get(path).set('host', '127.0.0.1');
  expect(res.status).toBe(200);
  return res.text;
};
const between = (html: string, open: string, close: string) =>
  html.slice(html.indexOf(open), html.indexOf(close, html.indexOf(open)));

test.each(['/', '/photos/3', '/tags', '/u/ada', '/sign-in'])(
  '%s: the header leads visitors only; the footer has the one way to the lab',
  async (path) => {
    const html = await page(path);
    const header = between(html, '<header', '</header>');
    expect(header).not.toContain('href="/lab"');
    expect(header).not.toContain('>Lab<');
    expect(between(html, '<footer', '</footer>')).toMatch(/<a href="\/lab"[^>]*>For developers<\/a>/);
    expect(html).not.toContain('this visit');
    expect(html).not.toContain('>Refresh<');
  },
);

test('the lab leads to the cache lab, the devtools and the refresh demonstration', async () => {
  const html = await page('/lab');
  for (const href of ['/cache-lab', '/?devtools', '/lab/refresh']) expect(html).toContain(`href="${href}"`);
  expect(await page('/lab/refresh')).toMatch(/Loaded \d+ times? by this server/);
});

test('a photo with no comments invites the first, above the form; one with comments does not', async () => {
  expect(await store.commentsOf('3')).toEqual([]);
  const empty = await page('/photos/3');
  expect(empty).toContain('No comments yet.');
  expect(empty.indexOf('No comments yet.')).toBeLessThan(empty.indexOf('class="comment-form"'));
  expect(empty).toContain('name="text"');
  const busy = await page('/photos/36');
  expect(busy).toContain('class="comment-text"');
  expect(busy).not.toContain('No comments yet.');
});

test('/tags: a card for each tag with tags below it; the others share one compact card', async () => {
  const html = await page('/tags');
  const compact = between(html, '<li class="tag-card-compact">', '</ul>');
  const chips = [...compact.matchAll(/<a href="\/tags\/([^"]+)" class="tag">/g)].map((m) => m[1]);
  expect(chips).toEqual(['film', 'food', 'minimal']);
  for (const leaf of chips) expect(html.split(`href="/tags/${leaf}"`)).toHaveLength(2);
  for (const parent of ['animals', 'city', 'nature', 'travel']) {
    const card = new RegExp(
      `href="/tags/${parent}" class="tag">${parent}</a> <span class="muted">\\d+</span><ul><li>`,
    );
    expect(html).toMatch(card);
  }
});
