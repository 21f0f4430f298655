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
  /** The name shown: the signed-in writer's handle, or the name a signed-out one typed. */
  author: string;
  /** The handle of the signed-in user who wrote it; null for a comment posted signed out. */
  authorHandle: string | null;
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
 * Invisible characters that change the direction of the text around them. Embeddings, overrides
 * (U+202A–U+202E) and isolates (U+2066–U+2069) make text read otherwise than it was written:
 * `\u202Enimda` shows as `admin`, and one left open in a name turns the date beside it around
 * too. The marks (U+200E, U+200F, U+061C) reorder nothing a letter could not: a comment mixing
 * Arabic or Hebrew with digits may need one, a name does not.
 */
const REFUSED = {
  author: /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g,
  text: /[\u202A-\u202E\u2066-\u2069]/g,
};

/**
 * The fields without the direction characters `checkCommentInput` refuses: what the form gives
 * back with the refusal, so that posting it again is all the author has to do.
 */
export function withoutDirectionControls(values: CommentInput): CommentInput {
  return { author: values.author.replace(REFUSED.author, ''), text: values.text.replace(REFUSED.text, '') };
}

/**
 * The trimmed author and text from `{ author, text }` or the form's FormData, or the message to
 * show beside the form. With `signedInAs` (a signed-in writer's handle) that is the author, and
 * whatever name was typed is ignored.
 *
 * @example
 * checkCommentInput({ author: ' ada ', text: 'Lovely' }); // { ok: true, value: { author: 'ada', text: 'Lovely' } }
 * checkCommentInput({ author: 'anyone', text: 'Lovely' }, 'kenji'); // { ok: true, value: { author: 'kenji', … } }
 */
export function checkCommentInput(input: unknown, signedInAs?: string): CheckedCommentInput {
  if (typeof input !== 'object' || input === null) {
    return {
      ok: false,
      error: signedInAs ? 'Write a comment first.' : 'A comment needs your name and some text.',
    };
  }
  // A no-JS form posts FormData; a script may post the plain object.
  const fields = input instanceof FormData ? Object.fromEntries(input) : (input as Record<string, unknown>);
  const { text } = fields;
  const author = signedInAs ?? fields.author;
  // A missing field and a file upload in its place are both "not given" to the person typing.
  if (typeof author !== 'string' || author.trim() === '') return { ok: false, error: 'Enter your name.' };
  if (typeof text !== 'string' || text.trim() === '') return { ok: false, error: 'Write a comment first.' };
  // PostgreSQL's text cannot hold NUL, so no store takes it: the same answer on every database.
  if (author.includes('\u0000') || text.includes('\u0000')) {
    return { ok: false, error: 'A comment cannot contain a NUL character.' };
  }
  const inAuthor = author.match(REFUSED.author)?.[0];
  const control = inAuthor ?? text.match(REFUSED.text)?.[0];
  if (control !== undefined) {
    const field = inAuthor === undefined ? 'Your comment' : 'Your name';
    const code = `U+${control.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    return {
      ok: false,
      error: `${field} had an invisible character that changes the direction of text (${code}). It is taken out below: check it and post again.`,
    };
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
