import { notFound, type LoadArgs } from 'switchyard-react';
import { COMMENTS_PER_PAGE } from '../../../lib/comments';
import { commentsSearch } from '../../../lib/comments-search';
import { getPhoto, photosByUser, toCard } from '../../../lib/photos';
import type { PhotoPageData } from '../../../lib/types';
import { store } from '../../../lib/db.server';
import { currentUser } from '../../../lib/session.server';
import { getUser } from '../../../lib/users';

const MORE_COUNT = 4;

/** `?before=<comment id>` pages back through the comments; anything else there is a 400. */
export const search = commentsSearch;

export async function load({ params, search }: LoadArgs<'/photos/[id]'>): Promise<PhotoPageData> {
  const photo = getPhoto(params.id);
  if (!photo) notFound();
  const author = getUser(photo.author);
  if (!author) throw new Error(`photo ${photo.id} names an unknown author "${photo.author}"`);
  const more = photosByUser(author.handle)
    .filter((other) => other.id !== photo.id)
    .slice(0, MORE_COUNT)
    .map(toCard);
  // Likes and comments change while the server runs: they come from the store, per request.
  const db = await store();
  const likes = (await db.likesOf(photo.id)) ?? photo.likes;
  // One more than a page tells whether more exist.
  const page = await db.commentsOf(photo.id, {
    before: search.before,
    limit: COMMENTS_PER_PAGE + 1,
  });
  const user = currentUser();
  const liked = user ? (await db.likedBy(user.handle, [photo.id])).has(photo.id) : null;
  const older = page.length > COMMENTS_PER_PAGE;
  const comments = older ? page.slice(1) : page;
  return {
    photo: { ...photo, likes },
    author,
    more,
    comments,
    commentCount: await db.commentCount(photo.id),
    olderBefore: older ? comments[0]!.id : null,
    olderPage: search.before !== undefined,
    liked,
    signedInAs: user?.handle ?? null,
  };
}
