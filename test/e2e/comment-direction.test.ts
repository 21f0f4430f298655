/**
 * Invisible characters that change the direction of text, posted to the real demo without
 * JavaScript: each one in a name or a comment is refused, the page says why, and the form comes
 * back without it. One stored before they were refused is isolated in the page: it turns its
 * name around, never the date beside it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStore } from '../../src/lib/store.server';
import { skipWithoutChromium, startServer, type RunningServer } from './harness';

const FORMATTING = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
const MARKS = ['\u200E', '\u200F', '\u061C'];
const code = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
const EMPTY_FORM_STATE = JSON.stringify([{ error: null, posted: null, values: { author: '', text: '' } }]);

describe.skipIf(skipWithoutChromium)('direction characters in comments', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-direction-'));
    await openStore(dataDir).close(); // created and seeded as the server would
    const db = new Database(join(dataDir, 'switchyard-demo.db'));
    db.prepare("INSERT INTO comments (photo_id, author, text) VALUES ('23', ?, 'from before')").run(
      '\u202Enimda',
    );
    db.close();
    server = await startServer('demo', {
      dataDir,
      env: { SWITCHYARD_ACTION_RATE_LIMIT: 'off', DEMO_COMMENT_LIMIT: 'off' },
    });
  });
  afterAll(() => server?.stop());

  /** Posts the photo page's comment form as a browser without JavaScript does; the page after. */
  async function postWithoutScript(author: string, text: string): Promise<string> {
    const base = server.url;
    const page = await (await fetch(`${base}/photos/22`)).text();
    const action = /<form[^>]*class="comment-form"[^>]*action="([^"]+)"/.exec(page)![1]!;
    const form = /<form[^>]*class="comment-form"[^>]*>([\s\S]*?)<\/form>/.exec(page)![1]!;
    const post = await fetch(base + action, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: base, referer: `${base}/photos/22` },
      body: new URLSearchParams({
        $ACTION_KEY: /name="\$ACTION_KEY" value="([^"]+)"/.exec(form)![1]!,
        $bound: EMPTY_FORM_STATE,
        photoId: '22',
        author,
        text,
      }),
    });
    expect(post.status).toBe(303);
    const cookie = post.headers.get('set-cookie')!.split(';')[0]!;
    return (await fetch(`${base}/photos/22`, { headers: { cookie } })).text();
  }

  test('each one in a name or a comment is refused with a message; the form comes back without it', async () => {
    const cases = [
      ...[...FORMATTING, ...MARKS].map((c) => ({ c, author: `ad${c}a`, text: 'Lovely', field: 'Your name' })),
      ...FORMATTING.map((c) => ({ c, author: 'ada', text: `Love${c}ly`, field: 'Your comment' })),
    ];
    for (const { c, author, text, field } of cases) {
      const html = await postWithoutScript(author, text);
      expect(html).toContain(
        `role="alert">${field} had an invisible character that changes the direction of text (${code(c)}).`,
      );
      expect(html).toMatch(/<input[^>]*name="author"[^>]*value="ada"/);
      expect(html).toMatch(/<textarea[^>]*name="text"[^>]*>Lovely<\/textarea>/);
      expect(html).not.toContain(c);
    }
    // Nothing was stored.
    expect(await (await fetch(`${server.url}/photos/22`)).text()).toContain('Comments (0)');
  }, 60_000);

  test('one stored before is isolated: it cannot turn the date beside the name around', async () => {
    const html = await (await fetch(`${server.url}/photos/23`)).text();
    expect(html).toContain('<strong><bdi>\u202Enimda</bdi></strong>');
  });
});
