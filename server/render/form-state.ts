/**
 * What a no-JS post of a `useActionState` form returned, kept for the page the 303 sends the
 * browser back to: under a random token in a short cookie, for one GET of that path, bounded in
 * count, size and time. React renders that page with it (`formState`), so the form shows the
 * action's message and what was typed, as Next.js does; the post itself stays post/redirect/get.
 */
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { FORM_STATE_MAX_BYTES, FORM_STATE_TTL_MS, FORM_STATES_HELD } from '../../shared/constants';

export const FORM_STATE_COOKIE = 'sy_form';

/**
 * React's `formState` (opaque in its types): what the action returned, the hook's key, the
 * action's id, and how many arguments the action had bound before `useActionState`'s state.
 */
export type FormState = [state: unknown, key: string, id: string, arity: number];

export interface FormStateStore {
  /** Keeps `state` for one GET of `path`; sets the cookie that names it. False when it is too large. */
  keep(res: Response, path: string, state: FormState): boolean;
  /** The state a GET of this path was sent back for, once; the cookie is cleared. */
  take(req: Request, res: Response, path: string): FormState | undefined;
  readonly size: number;
}

interface Kept {
  path: string;
  state: FormState;
  expires: number;
}

export function createFormStateStore(now: () => number): FormStateStore {
  // Insertion order is age order: the first key is the oldest.
  const kept = new Map<string, Kept>();
  const prune = () => {
    const time = now();
    for (const [token, entry] of kept) if (entry.expires <= time) kept.delete(token);
    while (kept.size >= FORM_STATES_HELD) kept.delete(kept.keys().next().value!);
  };
  return {
    keep(res, path, state) {
      if (Buffer.byteLength(JSON.stringify(state)) > FORM_STATE_MAX_BYTES) return false;
      prune();
      const token = randomBytes(16).toString('base64url');
      kept.set(token, { path, state, expires: now() + FORM_STATE_TTL_MS });
      res.cookie(FORM_STATE_COOKIE, token, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        maxAge: FORM_STATE_TTL_MS,
      });
      return true;
    },
    take(req, res, path) {
      const token = cookieOf(req.headers.cookie, FORM_STATE_COOKIE);
      if (token === undefined) return undefined;
      const entry = kept.get(token);
      // Another page was asked for first: the state waits for its own (or expires).
      if (entry && entry.path !== path && entry.expires > now()) return undefined;
      kept.delete(token);
      res.clearCookie(FORM_STATE_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/' });
      return entry && entry.expires > now() ? entry.state : undefined;
    },
    get size() {
      return kept.size;
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
