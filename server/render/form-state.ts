/**
 * What a no-JS post of a `useActionState` form returned, carried to the page the 303 sends the
 * browser back to in a short-lived cookie: signed with a key derived from the app's secret (so any
 * process of the deployment can read it, and a forged or altered one is ignored), bound to that
 * page, sent with requests for that page only (and over https only, when the post came that way),
 * read once and cleared. Signed, not encrypted: whoever sees the cookie can read the state. A
 * state too large for a cookie is not kept; the action handler then answers the post with the
 * page itself. React renders the page with it (`formState`).
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { FORM_STATE_COOKIE_MAX_BYTES, FORM_STATE_TTL_MS } from '../../shared/constants.js';
import { requestScheme, type TrustProxy } from '../http/request-url.js';

export const FORM_STATE_COOKIE = 'sy_form';

/**
 * React's `formState` (opaque in its types): what the action returned, the hook's key, the
 * action's id, and how many arguments the action had bound before `useActionState`'s state.
 */
export type FormState = [state: unknown, key: string, id: string, arity: number];

export interface FormStateStore {
  /** Sets the cookie that carries `state` to one GET of `path`; false when it is too large for one. */
  keep(req: Request, res: Response, path: string, state: FormState): boolean;
  /** For a page rendered in answer to the post itself: `take` gives `state` for this request. */
  hold(req: Request, state: FormState): void;
  /** The state a GET of this path was sent back with, once; the cookie is cleared. */
  take(req: Request, res: Response, path: string): FormState | undefined;
}

/** What the cookie signs: the page it is for, when it stops counting, and the state. */
interface Sealed {
  path: string;
  expires: number;
  state: FormState;
}

const COOKIE_OPTIONS = { httpOnly: true, sameSite: 'lax' } as const;

/**
 * The cookie goes only with requests for the page it is for (not with every asset for a minute):
 * its `Path` is the page's pathname, or `/` for one a cookie attribute cannot hold.
 */
function cookiePath(path: string): string {
  const pathname = path.split('?')[0]!;
  return /^\/[\u0020-\u003A\u003D-\u007E]*$/.test(pathname) ? pathname : '/';
}

/**
 * The pathname, and the search as `URLSearchParams` writes it. The Referer keeps a search as it
 * was typed (`?tag`, `?sort=a,b`); a request's URL with one of the framework's parameters taken
 * out is written anew (`?tag=`, `?sort=a%2Cb`). Both name the same page, so both compare as this.
 */
function pageKey(path: string): string {
  const at = path.indexOf('?');
  if (at < 0) return path;
  const search = new URLSearchParams(path.slice(at + 1)).toString();
  return search === '' ? path.slice(0, at) : `${path.slice(0, at)}?${search}`;
}

/** What tells this key apart from any other the app's secret may be used for. */
const KEY_LABEL = 'switchyard form state';

export interface FormStateStoreOptions {
  now: () => number;
  /** The same on every process that may serve the page after the post. */
  secret: string;
  /** Whether `X-Forwarded-Proto` says if the post came over https (behind a proxy that sets it). */
  trustProxy: TrustProxy;
}

export function createFormStateStore({ now, secret, trustProxy }: FormStateStoreOptions): FormStateStore {
  const held = new WeakMap<Request, FormState>();
  // A key of its own: a signature made here is worth nothing to any other use of the secret.
  const key = Buffer.from(hkdfSync('sha256', secret, '', KEY_LABEL, 32));
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url');
  // Over https the cookie never travels in clear text: a browser sends it back over https only.
  const cookieOptions = (req: Request, path: string) => ({
    ...COOKIE_OPTIONS,
    secure: requestScheme(req, trustProxy) === 'https',
    path: cookiePath(path),
  });

  /** The state sealed in `value`, or undefined for anything not signed here (or not JSON of our shape). */
  const open = (value: string): Sealed | undefined => {
    const [payload, mac, extra] = value.split('.');
    if (!payload || !mac || extra !== undefined || value.length > FORM_STATE_COOKIE_MAX_BYTES)
      return undefined;
    const expected = Buffer.from(sign(payload));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const sealed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Sealed;
      const [, key, id, arity] = sealed.state;
      const valid =
        typeof sealed.path === 'string' &&
        typeof sealed.expires === 'number' &&
        sealed.state.length === 4 &&
        typeof key === 'string' &&
        typeof id === 'string' &&
        Number.isInteger(arity);
      return valid ? sealed : undefined;
    } catch {
      return undefined;
    }
  };

  return {
    keep(req, res, path, state) {
      const payload = Buffer.from(
        JSON.stringify({ path, expires: now() + FORM_STATE_TTL_MS, state } satisfies Sealed),
      ).toString('base64url');
      const value = `${payload}.${sign(payload)}`;
      if (value.length > FORM_STATE_COOKIE_MAX_BYTES) return false;
      res.cookie(FORM_STATE_COOKIE, value, {
        ...cookieOptions(req, path),
        maxAge: FORM_STATE_TTL_MS,
        encode: String,
      });
      return true;
    },
    hold(req, state) {
      held.set(req, state);
    },
    take(req, res, path) {
      const direct = held.get(req);
      if (direct) return direct;
      const value = cookieOf(req.headers.cookie, FORM_STATE_COOKIE);
      if (value === undefined) return undefined;
      const sealed = open(value);
      const live = sealed !== undefined && sealed.expires > now();
      // Another page was asked for first: the state waits for its own (or expires).
      if (live && pageKey(sealed.path) !== pageKey(path)) return undefined;
      res.clearCookie(FORM_STATE_COOKIE, cookieOptions(req, path));
      return live ? sealed.state : undefined;
    },
  };
}

function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
