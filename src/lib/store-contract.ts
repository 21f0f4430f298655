/**
 * What the demo's pages and actions ask of their store, whichever database holds it: SQLite
 * (embedded, the default) or PostgreSQL (when `DATABASE_URL` is set, for several processes).
 * Every call is async, so both fit; a database that cannot answer now throws `RetryLater`.
 */
import type { Comment } from './comments';
import { listPhotos } from './photos';

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

/** Where a user's like of a photo stands after `setLiked`, and the photo's count with it. */
export interface LikeState {
  liked: boolean;
  count: number;
}

export interface AddCommentOptions {
  /** The client, counted against the comment limit; none (the seed, an operator's script) is not counted. */
  sender?: Sender | undefined;
  /** The signed-in user who writes it: their handle is the author, and a typed name is ignored. */
  handle?: string | undefined;
}

/**
 * A like belongs to a user: at most one per photo and handle (a known user of `users.ts`). A
 * photo's count is its generated count, plus the likes given before likes had owners (kept when
 * the database was upgraded, owned by nobody, never taken away), plus one for each user who
 * likes it now; so it is never below the generated count.
 */
export interface Store {
  /** The photo's like count (see above); undefined for no photo. */
  likesOf(photoId: string): Promise<number | undefined>;
  /**
   * One like owned by nobody (the signed-out button's) and the new count, or undefined for no
   * photo. It can never be taken back: it goes when the button asks for a signed-in user.
   */
  like(photoId: string): Promise<number | undefined>;
  /**
   * Makes `handle`'s like of the photo what `liked` says, and returns that with the new count.
   * Idempotent: the state wanted, never a flip, so a retried or doubled post changes nothing
   * more. Undefined, and nothing stored, for no photo or no such user.
   */
  setLiked(photoId: string, handle: string, liked: boolean): Promise<LikeState | undefined>;
  /** Which of `photoIds` the user likes, in one query however many are asked. */
  likedBy(handle: string, photoIds: readonly string[]): Promise<Set<string>>;
  /** The ids of the photos the user likes, the latest liked first, at most `limit` (at most `USER_LIST_LIMIT`). */
  photosLikedBy(handle: string, limit?: number): Promise<string[]>;
  /**
   * The newest `limit` comments (`COMMENTS_PER_PAGE` by default) older than the comment `before`
   * when given, oldest first: a page, never all of them.
   */
  commentsOf(photoId: string, page?: CommentPage): Promise<Comment[]>;
  /** How many comments the photo has. */
  commentCount(photoId: string): Promise<number>;
  /**
   * The comments a signed-in user wrote, on any photo, newest first: `limit` of them
   * (`COMMENTS_PER_PAGE` by default, at most `USER_LIST_LIMIT`) older than the comment `before`.
   */
  commentsBy(handle: string, page?: CommentPage): Promise<Comment[]>;
  /**
   * Checks `input` (see `checkCommentInput`) and, with a `sender`, its limit, and stores it
   * (counting it against the limit in the same transaction), or stores nothing and says why.
   * With a `handle`, the comment is that signed-in user's; one that names no user is refused.
   */
  addComment(photoId: string, input: unknown, options?: AddCommentOptions): Promise<AddCommentResult>;
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

/** The most one call of `photosLikedBy` or `commentsBy` gives: a user's page stays small however much they did. */
export const USER_LIST_LIMIT = 50;

/** `limit` as a row count a query can take: a whole number from 0 to `USER_LIST_LIMIT`. */
export function userListLimit(limit: number): number {
  return Math.min(Math.max(Math.floor(limit), 0), USER_LIST_LIMIT) || 0;
}

export const NO_SUCH_USER = 'You are signed in as a user who does not exist; sign in again.';

/**
 * Every photo's generated like count as a `VALUES` list both databases read, with the columns
 * `column1` (the id) and `column2` (the count). The photos are generated from a fixed seed, so
 * a migration that reads this reads the same numbers on every run.
 */
export function generatedLikesValues(): string {
  const rows = listPhotos().map((photo) => `('${photo.id.replaceAll("'", "''")}', ${photo.likes})`);
  return `VALUES ${rows.join(', ')}`;
}

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
