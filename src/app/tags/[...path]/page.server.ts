import { notFound, type LoadArgs } from 'switchyard-react';
import { toCard } from '../../../lib/photos';
import { childTags, getTag, photosByTag } from '../../../lib/tags';

export async function load({ params }: LoadArgs<'/tags/[...path]'>) {
  if (!getTag(params.path)) notFound();
  return { photos: photosByTag(params.path).map(toCard), children: childTags(params.path) };
}
