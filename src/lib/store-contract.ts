/**
 * What the demo's pages and actions ask of their store, whichever database holds it: SQLite
 * (embedded, the default) or PostgreSQL (when `DATABASE_URL` is set, for several processes).
 * Every call is async, so both fit; a database that cannot answer now throws `RetryLater`.
 */
import type { Comment } from './comments';

export type AddCommentResult =
  | { ok: true; comment: Comment }
  | { ok: false; error: string; /** Set when the sender is over its limit. */ retryAfterSeconds?: number };

/** At most `max` comments from one client in each window of `windowMs` (windows start at multiples of it). */
export interface CommentLimit {
  max: number;
  windowMs: number;
}

/**
 * Who posts a comment, for the limit: the client's key (its address), the time of the post,
 * and the limit to hold it to. The count is kept in the database, so every process of a
 * deployment counts the same posts; windows that have ended are deleted as new posts come.
 */
export interface Sender {
  client: string;
  at: number;
  limit: CommentLimit;
}

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
  /**
   * Checks `input` (see `checkCommentInput`) and, with a `sender`, its limit, and stores it
   * (counting it against the limit in the same transaction), or stores nothing and says why.
   */
  addComment(photoId: string, input: unknown, sender?: Sender): Promise<AddCommentResult>;
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

/** Characters of a client key kept: an address is far shorter; a longer key is cut, never refused. */
export const CLIENT_KEY_LENGTH = 100;

/** The window a post falls in, and what a sender over its limit is told. */
export function quotaWindow({ at, limit }: Sender): { start: number; retryAfterSeconds: number } {
  const start = Math.floor(at / limit.windowMs) * limit.windowMs;
  return { start, retryAfterSeconds: Math.max(1, Math.ceil((start + limit.windowMs - at) / 1_000)) };
}

export function overLimitError({ limit }: Sender, retryAfterSeconds: number): string {
  const minutes =
    limit.windowMs >= 120_000
      ? `${Math.round(limit.windowMs / 60_000)} minutes`
      : `${limit.windowMs / 1000} seconds`;
  return `You can post ${limit.max} comments every ${minutes}; try again in ${retryAfterSeconds} s.`;
}
