/**
 * The demo signed in and out, over HTTP against `createApp` with the demo's own routes and
 * actions: a like is the signed-in user's (the user from the session only, never the form), a
 * forged or tampered session is a signed-out visitor, sign-in goes back only to a path on this
 * site, a signed-in writer comments as their handle, and /me is theirs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { actionId } from '../../server/actions/action-registry';
import { createApp } from '../../server/create-app';
import { ACTION_HEADER, actionUrl } from '../../shared/actions';
import type { Store } from '../../src/lib/store-contract';
import { sessionCookie, TEST_SECRET } from '../helpers/session-cookie';
import { demoApp } from './fixture-app';

const ORIGIN = 'http://127.0.0.1';
const ACTIONS = {
  setLiked: ['lib/actions.ts', () => import('../../src/lib/actions').then((m) => m.setLiked)],
  addComment: ['lib/actions.ts', () => import('../../src/lib/actions').then((m) => m.addComment)],
  signIn: ['lib/session-actions.ts', () => import('../../src/lib/session-actions').then((m) => m.signIn)],
} as const;
type ActionName = keyof typeof ACTIONS;
const url = (name: ActionName) => actionUrl(actionId(ACTIONS[name][0], name));
const UNLIKED = { liked: false, count: 0 };
const EMPTY_FORM = { error: null, posted: null, values: { author: '', text: '' } };

// Forged: signed by nobody, with another user's signature, under another secret, cut short;
// and one signed properly for a handle that is no user.
const forged = {
  'no signature': 'session=ada',
  'another user’s signature': `session=ada.${sessionCookie('kenji').split('.')[1]}`,
  'another secret': sessionCookie('ada', 'another-secret-that-is-long-enough-to-sign'),
  'cut short': sessionCookie('ada').slice(0, -3),
  'no such user': sessionCookie('eve'),
};
let dir: string;
let app: ReturnType<typeof createApp>;
let store: Store;
const logger = { error: vi.fn(), info: vi.fn() };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-signed-in-'));
  vi.stubEnv('SWITCHYARD_DATA_DIR', dir);
  vi.stubEnv('DEMO_COMMENT_LIMIT', 'off');
  store = await (await import('../../src/lib/db.server')).store();
  const actions = Object.fromEntries(
    Object.entries(ACTIONS).map(([name, [file, load]]) => [actionId(file, name), load]),
  );
  app = createApp({ modules: demoApp, actions, secret: TEST_SECRET, logger, actionRateLimit: false });
});
afterAll(async () => {
  await store.close();
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

/** As the client runtime calls a `useActionState` action: the state and the form, JSON answered. */
function byScript(name: ActionName, state: unknown, fields: Record<string, string>, cookie?: string) {
  const post = request(app)
    .post(url(name))
    .set('host', '127.0.0.1')
    .set('origin', ORIGIN)
    .set(ACTION_HEADER, '1')
    .field('$args', JSON.stringify([state, { $form: true }]));
  if (cookie) void post.set('cookie', cookie);
  for (const [field, value] of Object.entries(fields)) void post.field(field, value);
  return post;
}

/** As a browser without JavaScript posts the form: a 303 on to where the action sends it. */
function byForm(name: ActionName, fields: Record<string, string>, page: string, cookie?: string) {
  const post = request(app)
    .post(url(name))
    .set('host', '127.0.0.1')
    .set('origin', ORIGIN)
    .set('referer', ORIGIN + page)
    .type('form');
  if (cookie) void post.set('cookie', cookie);
  return post.send(new URLSearchParams(fields).toString());
}

const likers = async (photoId: string) =>
  (
    await Promise.all(
      ['ada', 'kenji', 'mira', 'tomas', 'noor', 'lena'].map((h) => store.likedBy(h, [photoId])),
    )
  ).flatMap((set) => [...set]).length;

describe('the like button’s action', () => {
  test('signed in: the state asked for, a doubled post changes nothing more, and a second press unlikes', async () => {
    const base = (await store.likesOf('3'))!;
    const ada = sessionCookie('ada');
    const like = (liked: string) =>
      byScript('setLiked', UNLIKED, { photoId: '3', liked, next: '/photos/3' }, ada);
    const first = await like('1');
    expect(first.body).toEqual({
      value: { liked: true, count: base + 1 },
      revalidated: [
        { path: '/photos/3', type: 'page' },
        { path: '/', type: 'page' },
        { path: '/me', type: 'page' },
      ],
    });
    expect((await like('1')).body.value).toEqual({ liked: true, count: base + 1 });
    // Another user's like counts too; each is theirs.
    const kenji = await byScript('setLiked', UNLIKED, { photoId: '3', liked: '1' }, sessionCookie('kenji'));
    expect(kenji.body.value).toEqual({ liked: true, count: base + 2 });
    expect((await like('0')).body.value).toEqual({ liked: false, count: base + 1 });
    expect(await store.likedBy('ada', ['3'])).toEqual(new Set());
    expect(await store.likedBy('kenji', ['3'])).toEqual(new Set(['3']));
    // Without JavaScript: a 303 back to the page, and the like stored.
    const form = await byForm(
      'setLiked',
      { $ACTION_KEY: 'k0', $bound: JSON.stringify([UNLIKED]), photoId: '3', liked: '1' },
      '/photos/3',
      ada,
    );
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe('/photos/3');
    expect(await store.likesOf('3')).toBe(base + 2);
  });

  test.each([
    ['a state that is neither 1 nor 0', { photoId: '4', liked: 'true' }],
    ['no state', { photoId: '4' }],
    ['no such photo', { photoId: '999', liked: '1' }],
    ['no photo', { liked: '1' }],
  ])('signed in, %s: the state it had comes back, nothing stored', async (_name, fields) => {
    const before = await store.likesOf('4');
    const previous = { liked: false, count: 41 };
    const res = await byScript('setLiked', previous, fields, sessionCookie('ada'));
    expect(res.body).toEqual({ value: previous, revalidated: [] });
    expect(await store.likesOf('4')).toBe(before);
    expect(await likers('4')).toBe(0);
  });

  test.each(Object.entries(forged))(
    'a session cookie with %s is signed out: sent to sign in, nothing stored',
    async (_name, cookie) => {
      const before = await store.likesOf('6');
      const fields = { photoId: '6', liked: '1', next: '/photos/6' };
      const res = await byScript('setLiked', UNLIKED, fields, cookie);
      expect(res.body).toEqual({
        signal: { kind: 'redirect', location: '/sign-in?next=%2Fphotos%2F6', status: 307 },
        revalidated: [],
      });
      const form = await byForm(
        'setLiked',
        { $ACTION_KEY: 'k0', $bound: JSON.stringify([UNLIKED]), ...fields },
        '/photos/6',
        cookie,
      );
      expect(form.status).toBe(303);
      expect(form.headers.location).toBe('/sign-in?next=%2Fphotos%2F6');
      expect(await store.likesOf('6')).toBe(before);
      expect(await likers('6')).toBe(0);
    },
  );

  test.each([
    ['/photos/6?before=12', '/sign-in?next=%2Fphotos%2F6%3Fbefore%3D12'],
    ['https://evil.example/', '/sign-in'],
    ['//evil.example', '/sign-in'],
    [undefined, '/sign-in'],
  ])('signed out, next=%j: sent to %s', async (next, location) => {
    const fields: Record<string, string> = {
      photoId: '6',
      liked: '1',
      ...(next === undefined ? {} : { next }),
    };
    const res = await byForm(
      'setLiked',
      { $ACTION_KEY: 'k0', $bound: JSON.stringify([UNLIKED]), ...fields },
      '/photos/6',
    );
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(location);
  });
});

describe('signing in', () => {
  test.each([
    ['/photos/7', '/photos/7'],
    ['https://evil.example', '/'],
    ['//evil.example/me', '/'],
  ])('next=%j lands on %s, signed in', async (next, location) => {
    const res = await byForm('signIn', { handle: 'mira', next }, `/sign-in?next=${encodeURIComponent(next)}`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(location);
    const cookie = ([] as string[])
      .concat(res.headers['set-cookie'] ?? [])
      .find((c) => c.startsWith('session='));
    expect(cookie).toMatch(/^session=mira\.[\w-]{43}; Max-Age=2592000; Path=\/; HttpOnly; SameSite=Lax$/);
    // The cookie it set is a session the next request reads.
    const page = await request(app).get('/photos/7').set('cookie', cookie!.split(';')[0]!);
    expect(page.text).toContain('Commenting as @mira');
  });

  test('a handle that is no user: back to sign in, no session', async () => {
    const res = await byForm('signIn', { handle: 'eve', next: '/me' }, '/sign-in?next=%2Fme');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/sign-in?next=%2Fme');
    expect(res.headers['set-cookie'] ?? []).not.toContainEqual(expect.stringMatching(/^session=/));
  });
});

describe('the photo page', () => {
  const likeButton = (html: string) => /<button[^>]*class="button like-button"[^>]*>/.exec(html)![0];

  test('signed in: the like is a toggle saying whether it is pressed; the comment form names the writer', async () => {
    await store.setLiked('8', 'noor', true);
    const liked = (await request(app).get('/photos/8').set('cookie', sessionCookie('noor'))).text;
    expect(likeButton(liked)).toContain('aria-pressed="true"');
    expect(liked).toContain('<input type="hidden" name="liked" value="0"/>');
    expect(liked).toContain('Commenting as @noor');
    expect(liked).not.toContain('name="author"');
    const other = (await request(app).get('/photos/8').set('cookie', sessionCookie('lena'))).text;
    expect(likeButton(other)).toContain('aria-pressed="false"');
    expect(other).toContain('<input type="hidden" name="liked" value="1"/>');
  });

  test('signed out (or forged): a plain Like, and a name to type', async () => {
    for (const cookie of ['', forged['another secret']]) {
      const html = (await request(app).get('/photos/8').set('cookie', cookie)).text;
      expect(likeButton(html)).not.toContain('aria-pressed');
      expect(html).toContain('<input type="hidden" name="next" value="/photos/8"/>');
      expect(html).toContain('name="author"');
      expect(html).not.toContain('Commenting as');
    }
  });
});

describe('comments', () => {
  test('signed in: the author is the session’s user, whatever name the form sends', async () => {
    const res = await byScript(
      'addComment',
      EMPTY_FORM,
      { photoId: '9', author: 'ada', text: 'Signed' },
      sessionCookie('tomas'),
    );
    expect(res.body.value).toMatchObject({
      error: null,
      posted: { author: 'tomas', authorHandle: 'tomas', text: 'Signed' },
    });
    // The list links the signed-in author's profile; a signed-out name stays text.
    await byScript('addComment', EMPTY_FORM, { photoId: '9', author: 'Visitor', text: 'Typed' });
    const html = (await request(app).get('/photos/9')).text;
    expect(html).toContain('<a href="/u/tomas">@tomas</a>');
    expect(html).toContain('<bdi>Visitor</bdi>');
  });

  test('the signed-in form posted after the session ended: asked to sign in again, nothing stored', async () => {
    const before = await store.commentCount('10');
    const res = await byScript(
      'addComment',
      EMPTY_FORM,
      { photoId: '10', text: 'Lost' },
      forged['another secret'],
    );
    expect(res.body).toEqual({
      value: {
        error: 'You are signed out: sign in again to comment as yourself.',
        posted: null,
        values: { author: '', text: 'Lost' },
      },
      revalidated: [{ path: '/', type: 'layout' }],
    });
    expect(await store.commentCount('10')).toBe(before);
  });
});

describe('/me', () => {
  test('the signed-in user’s likes and comments, with links to their photos, and a title', async () => {
    await store.setLiked('11', 'lena', true);
    await store.setLiked('12', 'lena', true);
    await store.addComment('13', { author: '', text: 'Mine' }, { handle: 'lena' });
    const res = await request(app).get('/me').set('cookie', sessionCookie('lena'));
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<title>You \(@lena\) · Switchyard<\/title>/);
    const liked = [...res.text.matchAll(/<a href="\/photos\/(\d+)" class="card-link">/g)].map((m) => m[1]);
    expect(liked).toEqual(['12', '11']);
    expect(res.text).toMatch(
      /<a href="\/photos\/13">[^<]+<\/a> <time[^>]*>[^<]+<\/time><\/p><p class="comment-text">Mine<\/p>/,
    );
  });

  test.each([
    ['no session', ''],
    ['a forged one', forged['no signature']],
    ['a user that does not exist', forged['no such user']],
  ])('with %s: sent to sign in, and back here after', async (_name, cookie) => {
    const res = await request(app).get('/me').set('cookie', cookie);
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe('/sign-in?next=%2Fme');
  });
});
