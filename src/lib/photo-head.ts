import type { Head } from 'switchyard-react';
import type { PhotoPageData } from './types';

/**
 * A photo's head tags, the same for its full page and for the modal that shows it over the feed:
 * a shared link to either shows the photo's own picture, drawn at `/api/photos/<id>/art`.
 */
export function photoHead({ photo, author }: PhotoPageData): Head {
  const id = encodeURIComponent(photo.id);
  const tagged = photo.tags.length > 0 ? `, tagged ${photo.tags.join(', ')}` : '';
  const description = `${photo.title}: a picture by ${author.name}${tagged}.`;
  return {
    title: `${photo.title} · Switchyard`,
    description,
    // One address for the photo, whichever page of its comments (`?before=`) was asked for.
    canonical: `/photos/${id}`,
    openGraph: { title: photo.title, description, image: `/api/photos/${id}/art`, type: 'article' },
  };
}
