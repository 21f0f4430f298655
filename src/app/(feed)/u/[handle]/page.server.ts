import { notFound, type LoadArgs } from 'switchyard-react';
import { photosByUser, toCard } from '../../../../lib/photos';
import { getUser } from '../../../../lib/users';

export async function load({ params }: LoadArgs<'/u/[handle]'>) {
  const user = getUser(params.handle);
  if (!user) notFound();
  const photos = photosByUser(user.handle);
  return {
    user,
    photos: photos.map(toCard),
    likes: photos.reduce((sum, photo) => sum + photo.likes, 0),
  };
}
