import type { PageProps } from 'switchyard-react';
import { PhotoDetails } from '../../../../../components/photo-details';
import { PhotoModal } from '../../../../../components/photo-modal';
import type { PhotoPageData } from '../../../../../lib/types';

/** A photo opened from the feed or a profile: over that page, in a dialog. */
export default function PhotoInModal({ data }: PageProps<{ id: string }, PhotoPageData>) {
  const { photo, author } = data;
  return (
    <PhotoModal labelledBy="photo-modal-title" fullPage={`/photos/${photo.id}`}>
      {/* Mounted after the page's own title, so it is the one the tab shows while the modal is open. */}
      <title>{`${photo.title} by ${author.name} · Switchyard`}</title>
      <PhotoDetails photo={photo} author={author} titleId="photo-modal-title" />
    </PhotoModal>
  );
}
