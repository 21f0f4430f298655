/**
 * What the demo's pages and actions ask of their store, whichever database holds it: SQLite
 * (embedded, the default) or PostgreSQL (when `DATABASE_URL` is set, for several processes).
 * Every call is async, so both fit; a database that cannot answer now throws `RetryLater`.
 */
import type { Comment } from './comments';

export type AddCommentResult = { ok: true; comment: Comment } | { ok: false; error: string };

export interface CommentPage {
  /** Only comments older than (with an id below) this one. */
  before?: number | undefined;
  /** At most this many, the newest of them. */
  limit?: number;
}

export interface Store {
  /** The photo's likes: its generated count until someone likes or unlikes it; undefined for no photo. */
  likesOf(photoId: string): Promise<number | undefined>;
  /** Adds one like and returns the new count, or undefined for no photo. */
  like(photoId: string): Promise<number | undefined>;
  /** Takes one like away (never below zero) and returns the new count, or undefined for no photo. */
  unlike(photoId: string): Promise<number | undefined>;
  /**
   * The newest `limit` comments (`COMMENTS_PER_PAGE` by default) older than the comment `before`
   * when given, oldest first: a page, never all of them.
   */
  commentsOf(photoId: string, page?: CommentPage): Promise<Comment[]>;
  /** How many comments the photo has. */
  commentCount(photoId: string): Promise<number>;
  /** Checks `input` (see `checkCommentInput`) and stores it, or stores nothing and says why. */
  addComment(photoId: string, input: unknown): Promise<AddCommentResult>;
  close(): Promise<void>;
}

/** Comments a fresh database starts with: [photo id, author handle, text, hours after the photo]. */
export const SEED_COMMENTS: readonly (readonly [string, string, string, number])[] = [
  ['36', 'kenji', 'That light is unreal. What time of day was this?', 2],
  ['36', 'ada', 'Just after sunrise, about twenty minutes of it.', 3],
  ['35', 'mira', 'Love the layers here.', 5],
  ['30', 'lena', 'Saving this one for my wall.', 1],
  ['30', 'noor', 'The colours!', 26],
];
