import { notFound, type LoadArgs } from 'switchyard-react';
import { photosByUser, toCard } from '../../../../lib/photos';
import type { ProfileData } from '../../../../lib/types';
import { getUser } from '../../../../lib/users';

export async function load({ params }: LoadArgs<{ handle: string }>): Promise<ProfileData> {
  const user = getUser(params.handle);
  if (!user) notFound();
  const photos = photosByUser(user.handle);
  return {
    user,
    photos: photos.map(toCard),
    likes: photos.reduce((sum, photo) => sum + photo.likes, 0),
  };
}
