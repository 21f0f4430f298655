import { redirect } from 'switchyard-react';
import { store } from '../../../lib/db.server';
import { signInHref } from '../../../lib/next-path';
import { getPhoto, toCard } from '../../../lib/photos';
import { currentUser } from '../../../lib/session.server';

export async function load() {
  const user = currentUser();
  // Middleware sends a visitor with no session to sign in; this is one whose session no longer holds.
  if (!user) redirect(signInHref('/me'));
  const db = await store();
  const [likedIds, comments] = await Promise.all([db.photosLikedBy(user.handle), db.commentsBy(user.handle)]);
  const photos = likedIds.flatMap((id) => getPhoto(id) ?? []);
  return {
    user: { handle: user.handle, name: user.name },
    liked: await Promise.all(
      photos.map(async (photo) => ({ ...toCard(photo), likes: (await db.likesOf(photo.id)) ?? photo.likes })),
    ),
    comments: comments.map((comment) => ({
      ...comment,
      photoTitle: getPhoto(comment.photoId)?.title ?? `Photo ${comment.photoId}`,
    })),
  };
}
