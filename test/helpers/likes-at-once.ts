/**
 * The demo's six users set their like of one photo at once over HTTP, through several servers
 * of one deployment: every post doubled, its two copies through two different servers, in two
 * steps — all six like it, then `DROPPERS` unlike it while `KEEPERS` like it again. Whatever the
 * interleaving, the end is known: `KEEPERS` like the photo, `DROPPERS` do not, and its count is
 * the one before plus `KEEPERS.length`. A count that misses a like, counts one twice or takes one
 * away twice ends off by that much.
 */
import { actionId } from '../../server/actions/action-registry';
import { actionUrl } from '../../shared/actions';
import { DROPPERS, KEEPERS } from './like-storm';

export { DROPPERS, KEEPERS };
export const USERS: readonly string[] = [...KEEPERS, ...DROPPERS];
const SET_LIKED = actionUrl(actionId('lib/actions.ts', 'setLiked'));
const SIGN_IN = actionUrl(actionId('lib/session-actions.ts', 'signIn'));
/** Longer than any answer may take on a loaded machine. */
const REQUEST_TIMEOUT_MS = 30_000;

export interface LikeAnswer {
  handle: string;
  wanted: boolean;
  status: number;
  /** The action's answer: the user's like and the count. */
  value?: { liked: boolean; count: number };
}

/** Signs `handle` in through `base` as the sign-in page's form does; the `Cookie` header it gets. */
export async function signInThrough(base: string, handle: string): Promise<string> {
  const response = await fetch(base + SIGN_IN, {
    method: 'POST',
    headers: { origin: base, 'x-switchyard-action': '1', connection: 'close' },
    body: new URLSearchParams({ handle, next: '/' }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('session='));
  if (!cookie) throw new Error(`signing in ${handle} through ${base} set no session (${response.status})`);
  return cookie.split(';')[0]!;
}

/** The two steps (see above); `cookies` has each user's session cookie. Every answer, in order. */
export async function setLikesAtOnce(
  bases: readonly string[],
  photoId: string,
  cookies: Readonly<Record<string, string>>,
): Promise<LikeAnswer[]> {
  const post = async (base: string, handle: string, wanted: boolean): Promise<LikeAnswer> => {
    const response = await fetch(base + SET_LIKED, {
      method: 'POST',
      headers: { origin: base, 'x-switchyard-action': '1', connection: 'close', cookie: cookies[handle]! },
      body: new URLSearchParams({
        $bound: JSON.stringify([{ liked: false, count: 0 }]),
        photoId,
        liked: wanted ? '1' : '0',
      }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const body = (await response.json()) as { value?: { liked: boolean; count: number } };
    return { handle, wanted, status: response.status, ...(body.value ? { value: body.value } : {}) };
  };
  const step = (wanted: (handle: string) => boolean) =>
    Promise.all(
      USERS.flatMap((handle, i) =>
        [0, 1].map((copy) => post(bases[(i + copy) % bases.length]!, handle, wanted(handle))),
      ),
    );
  const first = await step(() => true);
  const second = await step((handle) => (KEEPERS as readonly string[]).includes(handle));
  return [...first, ...second];
}
