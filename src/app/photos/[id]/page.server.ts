import { notFound, type LoadArgs } from 'switchyard';
import { getPhoto, photosByUser, toCard } from '../../../lib/photos';
import type { PhotoPageData } from '../../../lib/types';
import { getUser } from '../../../lib/users';

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
  return { photo, author, more };
}
