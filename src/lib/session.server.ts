/**
 * Who is signed in: the handle of one of the demo's users, in a signed cookie. There are no
 * passwords — a visitor picks a user on /sign-in — but the cookie is signed with the app's
 * secret, so nobody becomes someone else by editing it: a changed cookie reads as signed out.
 */
import { cookies } from 'switchyard-react/server';
import type { User } from './types';
import { getUser } from './users';

export const SESSION_COOKIE = 'session';
/** Thirty days, renewed at each sign-in. */
const SESSION_MAX_AGE_S = 30 * 24 * 60 * 60;

/** The signed-in user, or undefined (no cookie, a tampered one, or a user who no longer exists). */
export function currentUser(): User | undefined {
  const handle = cookies().get(SESSION_COOKIE, { signed: true });
  return handle === undefined ? undefined : getUser(handle);
}

export function startSession(user: User): void {
  cookies().set(SESSION_COOKIE, user.handle, { signed: true, maxAge: SESSION_MAX_AGE_S });
}

export function endSession(): void {
  cookies().delete(SESSION_COOKIE);
}
