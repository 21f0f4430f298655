'use server';
/**
 * The demo's server actions: called from forms that work with JavaScript off too.
 * Each checks what it is sent (it comes off the wire) and revalidates the pages it changed.
 */
import { callerAddress, revalidatePath } from 'switchyard-react/server';
import { withoutDirectionControls, type Comment } from './comments';
import { commentLimit, store } from './db.server';
import { getPhoto } from './photos';

export interface CommentFormState {
  /** What to show beside the form, or null. */
  error: string | null;
  /** The comment just posted, to announce it. */
  posted: Comment | null;
  /** What was typed, given back with an error so the form keeps it (empty after a post). */
  values: { author: string; text: string };
}

function photoIdOf(form: unknown): string | undefined {
  const id = form instanceof FormData ? form.get('photoId') : undefined;
  return typeof id === 'string' && getPhoto(id) ? id : undefined;
}

/**
 * One more like, owned by nobody (the button of a visitor who is not signed in); the answer is
 * the new count (the previous one is what the button showed). A signed-in user's like is the
 * store's `setLiked`, which wants the user from the session, never from the form.
 */
export async function likePhoto(previous: number, form: FormData): Promise<number> {
  const id = photoIdOf(form);
  if (id === undefined) return previous;
  const likes = (await (await store()).like(id))!;
  revalidatePath(`/photos/${id}`);
  revalidatePath('/');
  return likes;
}

/**
 * Adds a comment, or says what is wrong with it (or that its sender is over the comment limit)
 * and stores nothing. An error gives back what was typed: React resets the form after an action, to the values it renders from this state.
 */
export async function addComment(_previous: CommentFormState, form: FormData): Promise<CommentFormState> {
  const field = (name: string) => {
    const value = form instanceof FormData ? form.get(name) : null;
    return typeof value === 'string' ? value : '';
  };
  const values = { author: field('author'), text: field('text') };
  const id = photoIdOf(form);
  if (id === undefined) return { error: 'That photo does not exist.', posted: null, values };
  // Each client's comments are counted, in the database, against the limit.
  const limit = commentLimit();
  const sender = limit ? { client: callerAddress(), at: Date.now(), limit } : undefined;
  // Signed out: the name is the one typed. A signed-in writer's handle comes from the session.
  const result = await (await store()).addComment(id, form, { sender });
  // Given back without what was refused in it, so the next post is the one the author sees.
  if (!result.ok) return { error: result.error, posted: null, values: withoutDirectionControls(values) };
  revalidatePath(`/photos/${id}`);
  return { error: null, posted: result.comment, values: { author: values.author, text: '' } };
}
