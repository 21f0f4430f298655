import type { HeadArgs, PageProps } from 'switchyard-react';
import { PhotoDetails } from '../../../../../components/photo-details';
import { PhotoModal } from '../../../../../components/photo-modal';
import { photoHead } from '../../../../../lib/photo-head';
import type { PhotoPageData } from '../../../../../lib/types';

/** While the modal is open, the page's head is the photo's; closing it gives the feed its own back. */
export function head({ data }: HeadArgs<PhotoPageData>) {
  return photoHead(data);
}

/** A photo opened from the feed or a profile: over that page, in a dialog. */
export default function PhotoInModal({ data }: PageProps<'/photos/[id]'>) {
  const { photo, author, liked } = data;
  return (
    <PhotoModal labelledBy="photo-modal-title" fullPage={`/photos/${photo.id}`}>
      <PhotoDetails photo={photo} author={author} liked={liked} titleId="photo-modal-title" />
    </PhotoModal>
  );
}
