'use server';
/**
 * Signing in and out: actions posted by plain forms, so both work without JavaScript. Each
 * changes who the whole site is shown to, so each revalidates every layout from the root.
 */
import { redirect } from 'switchyard-react';
import { revalidatePath } from 'switchyard-react/server';
import { nextPath } from './next-path';
import { endSession, startSession } from './session.server';
import { getUser } from './users';

export async function signIn(form: FormData): Promise<void> {
  const handle = form.get('handle');
  const user = typeof handle === 'string' ? getUser(handle) : undefined;
  const next = nextPath(form.get('next'));
  if (!user) redirect(next === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(next)}`);
  startSession(user);
  revalidatePath('/', 'layout');
  redirect(next);
}

export async function signOut(): Promise<void> {
  endSession();
  revalidatePath('/', 'layout');
  redirect('/');
}
