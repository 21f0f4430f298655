'use server';
/**
 * The demo's server actions (SPEC A1): called from forms that work with JavaScript off too.
 * Each checks what it is sent (it comes off the wire) and revalidates the pages it changed.
 */
import { revalidatePath } from 'switchyard/server';
import type { Comment } from './comments';
import { store } from './db.server';

export interface CommentFormState {
  /** What to show beside the form, or null. */
  error: string | null;
  /** The comment just posted, to announce it. */
  posted: Comment | null;
}

function photoIdOf(form: unknown): string | undefined {
  const id = form instanceof FormData ? form.get('photoId') : undefined;
  return typeof id === 'string' && store().likesOf(id) !== undefined ? id : undefined;
}

/** One more like; the answer is the new count (the previous one is what the button showed). */
export async function likePhoto(previous: number, form: FormData): Promise<number> {
  const id = photoIdOf(form);
  if (id === undefined) return previous;
  const likes = store().like(id)!;
  revalidatePath(`/photos/${id}`);
  revalidatePath('/');
  return likes;
}

/** Adds a comment, or says what is wrong with it and stores nothing. */
export async function addComment(_previous: CommentFormState, form: FormData): Promise<CommentFormState> {
  const id = photoIdOf(form);
  if (id === undefined) return { error: 'That photo does not exist.', posted: null };
  const result = store().addComment(id, form);
  if (!result.ok) return { error: result.error, posted: null };
  revalidatePath(`/photos/${id}`);
  return { error: null, posted: result.comment };
}
