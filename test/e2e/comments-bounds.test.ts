/**
 * What one client can do to a page through its writes, against the real demo: a photo with
 * 2,000 comments renders one page of them, with links to the others that work without
 * JavaScript, and a burst of 100 comment posts from one client is mostly answered 429.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { actionUrl } from '../../shared/actions';
import { COMMENTS_PER_PAGE } from '../../src/lib/comments';
import { openStore } from '../../src/lib/store.server';
import { skipWithoutChromium, startServer, type RunningServer } from './harness';

const COMMENTS = 2_000;
const comments = (html: string) => html.match(/<li class="comment">/g)?.length ?? 0;

describe.skipIf(skipWithoutChromium)('bounded by one client', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-comments-'));
    await openStore(dataDir).close(); // created and seeded as the server would
    const db = new Database(join(dataDir, 'switchyard-demo.db'));
    const insert = db.prepare("INSERT INTO comments (photo_id, author, text) VALUES ('20', 'bulk', ?)");
    db.transaction(() => {
      for (let i = 0; i < COMMENTS; i++) insert.run(`comment ${i} ${'x'.repeat(480)}`);
    })();
    db.close();
    server = await startServer('demo', { dataDir });
  });
  afterAll(() => server?.stop());

  test(`a photo with ${COMMENTS} comments shows the newest ${COMMENTS_PER_PAGE}, and links to older ones`, async () => {
    const html = await (await fetch(`${server.url}/photos/20`)).text();
    expect(comments(html)).toBe(COMMENTS_PER_PAGE);
    expect(html).toContain(`Comments (${COMMENTS})`);
    expect(html).toContain(`comment ${COMMENTS - 1} `);
    expect(html).not.toContain(`comment ${COMMENTS - COMMENTS_PER_PAGE - 1} `);
    // 20 comments of 500 characters, the rest of the page, and its state: far from 2,000 of them.
    expect(html.length).toBeLessThan(100_000);

    // The link is a plain href: following it is what a browser without JavaScript does.
    const older = /<a [^>]*href="(\/photos\/20\?before=\d+)"[^>]*>Older comments<\/a>/.exec(html)?.[1];
    expect(older).toBeDefined();
    const next = await (await fetch(`${server.url}${older}`)).text();
    expect(comments(next)).toBe(COMMENTS_PER_PAGE);
    expect(next).toContain(`comment ${COMMENTS - COMMENTS_PER_PAGE - 1} `);
    expect(next).toContain('>Newest comments</a>');
  });

  test('100 comments posted at once from one client: most are 429 with Retry-After', async () => {
    const url = `${server.url}${actionUrl(actionId('lib/actions.ts', 'addComment'))}`;
    const post = (i: number) =>
      fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          $bound: '[{"error":null,"posted":null,"values":{"author":"","text":""}}]',
          photoId: '21',
          author: 'burst',
          text: `burst ${i}`,
        }),
      });
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => post(i)));
    const refused = answers.filter((res) => res.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(50);
    expect(answers.every((res) => res.status === 429 || res.status === 303)).toBe(true);
    expect(refused.every((res) => Number(res.headers.get('retry-after')) >= 1)).toBe(true);
  });
});
