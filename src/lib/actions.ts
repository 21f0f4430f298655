'use server';
/**
 * The demo's server actions: called from forms that work with JavaScript off too.
 * Each checks what it is sent (it comes off the wire) and revalidates the pages it changed.
 */
import { redirect } from 'switchyard-react';
import { callerAddress, revalidatePath } from 'switchyard-react/server';
import { withoutDirectionControls, type Comment } from './comments';
import { commentLimit, store } from './db.server';
import { nextPath, signInHref } from './next-path';
import { getPhoto } from './photos';
import { currentUser } from './session.server';
import type { LikeState } from './store-contract';

const SIGNED_OUT = 'You are signed out: sign in again to comment as yourself.';

export interface CommentFormState {
  /** What to show beside the form, or null. */
  error: string | null;
  /** The comment just posted, to announce it. */
  posted: Comment | null;
  /** What was typed, given back with an error so the form keeps it (empty after a post). */
  values: { author: string; text: string };
}

/** A text field of the form; anything else (a file, no field, no form) is undefined. */
function fieldOf(form: unknown, name: string): string | undefined {
  const value = form instanceof FormData ? form.get(name) : undefined;
  return typeof value === 'string' ? value : undefined;
}

function photoIdOf(form: unknown): string | undefined {
  const id = fieldOf(form, 'photoId');
  return id !== undefined && getPhoto(id) ? id : undefined;
}

/**
 * Makes the signed-in user's like of the photo what the button asks for (`liked`: `1` or `0`),
 * and answers it with the photo's count. A state, never a flip: a doubled post changes nothing
 * more. The user comes from the session alone; signed out (or with a session that no longer
 * holds), the visitor is sent to sign in and brought back to `next`, the page the button is on.
 */
export async function setLiked(previous: LikeState, form: FormData): Promise<LikeState> {
  const user = currentUser();
  if (!user) redirect(signInHref(nextPath(fieldOf(form, 'next'))));
  const id = photoIdOf(form);
  const liked = fieldOf(form, 'liked');
  if (id === undefined || (liked !== '1' && liked !== '0')) return previous;
  const state = await (await store()).setLiked(id, user.handle, liked === '1');
  if (!state) return previous;
  revalidatePath(`/photos/${id}`);
  revalidatePath('/');
  revalidatePath('/me');
  return state;
}

/**
 * Adds a comment, or says what is wrong with it (or that its sender is over the comment limit)
 * and stores nothing. An error gives back what was typed: React resets the form after an action, to the values it renders from this state.
 */
export async function addComment(_previous: CommentFormState, form: FormData): Promise<CommentFormState> {
  const values = { author: fieldOf(form, 'author') ?? '', text: fieldOf(form, 'text') ?? '' };
  const id = photoIdOf(form);
  if (id === undefined) return { error: 'That photo does not exist.', posted: null, values };
  const user = currentUser();
  // The form a signed-in user is shown has no name field: this one was posted after the session
  // ended. The page is shown again as signed out, with the name field.
  if (!user && form instanceof FormData && !form.has('author')) {
    revalidatePath('/', 'layout');
    return { error: SIGNED_OUT, posted: null, values };
  }
  // Each client's comments are counted, in the database, against the limit.
  const limit = commentLimit();
  const sender = limit ? { client: callerAddress(), at: Date.now(), limit } : undefined;
  // Signed out: the name is the one typed. A signed-in writer's handle comes from the session.
  const result = await (await store()).addComment(id, form, { sender, handle: user?.handle });
  // Given back without what was refused in it, so the next post is the one the author sees.
  if (!result.ok) return { error: result.error, posted: null, values: withoutDirectionControls(values) };
  revalidatePath(`/photos/${id}`);
  return { error: null, posted: result.comment, values: { author: values.author, text: '' } };
}
