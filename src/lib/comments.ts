/**
 * A photo comment as the demo stores and shows it, and the rules for one a form sends. The store
 * enforces these rules and the form can show the same limits (`maxLength`), so the two never
 * drift. Lengths are UTF-16 code units, which is what an input's `maxLength` counts.
 */

export const MAX_COMMENT_LENGTH = 500;
export const MAX_AUTHOR_LENGTH = 40;
/** Comments shown at once: a photo page stays the same size however many it has. */
export const COMMENTS_PER_PAGE = 20;

export interface Comment {
  id: number;
  photoId: string;
  author: string;
  text: string;
  /** ISO 8601, UTC. */
  createdAt: string;
}

export interface CommentInput {
  author: string;
  text: string;
}

export type CheckedCommentInput = { ok: true; value: CommentInput } | { ok: false; error: string };

/**
 * The trimmed author and text from `{ author, text }` or the form's FormData, or the message to
 * show beside the form.
 *
 * @example
 * checkCommentInput({ author: ' ada ', text: 'Lovely' }); // { ok: true, value: { author: 'ada', text: 'Lovely' } }
 */
export function checkCommentInput(input: unknown): CheckedCommentInput {
  if (typeof input !== 'object' || input === null) {
    return { ok: false, error: 'A comment needs your name and some text.' };
  }
  // A no-JS form posts FormData; a script may post the plain object.
  const fields = input instanceof FormData ? Object.fromEntries(input) : (input as Record<string, unknown>);
  const { author, text } = fields;
  // A missing field and a file upload in its place are both "not given" to the person typing.
  if (typeof author !== 'string' || author.trim() === '') return { ok: false, error: 'Enter your name.' };
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, error: 'Write a comment first.' };
  // PostgreSQL's text cannot hold NUL, so no store takes it: the same answer on every database.
  if (author.includes('\u0000') || text.includes('\u0000')) {
    return { ok: false, error: 'A comment cannot contain a NUL character.' };
  }
  const value = { author: author.trim(), text: text.trim() };
  if (value.author.length > MAX_AUTHOR_LENGTH) {
    return { ok: false, error: `Your name can be at most ${MAX_AUTHOR_LENGTH} characters.` };
  }
  if (value.text.length > MAX_COMMENT_LENGTH) {
    return {
      ok: false,
      error: `A comment can be at most ${MAX_COMMENT_LENGTH} characters (this one has ${value.text.length}).`,
    };
  }
  return { ok: true, value };
}
