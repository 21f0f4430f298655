import { notFound, type LoadArgs } from 'switchyard';
import { getPhoto, photosByUser, toCard } from '../../../lib/photos';
import type { PhotoPageData } from '../../../lib/types';
import { getUser } from '../../../lib/users';
import { store } from '../../../lib/db.server';

const MORE_COUNT = 4;

export async function load({ params }: LoadArgs<{ id: string }>): Promise<PhotoPageData> {
  const photo = getPhoto(params.id);
  if (!photo) notFound();
  const author = getUser(photo.author);
  if (!author) throw new Error(`photo ${photo.id} names an unknown author "${photo.author}"`);
  const more = photosByUser(author.handle)
    .filter((other) => other.id !== photo.id)
    .slice(0, MORE_COUNT)
    .map(toCard);
  // Likes and comments change while the server runs: they come from the store, per request.
  const likes = store().likesOf(photo.id) ?? photo.likes;
  return { photo: { ...photo, likes }, author, more, comments: store().commentsOf(photo.id) };
}
