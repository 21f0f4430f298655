import type { HeadArgs, PageProps } from 'switchyard-react';
import { Comments } from '../../../components/comments';
import { PhotoDetails } from '../../../components/photo-details';
import { PhotoGrid } from '../../../components/photo-grid';
import { photoHead } from '../../../lib/photo-head';
import type { PhotoPageData } from '../../../lib/types';

export function head({ data }: HeadArgs<PhotoPageData>) {
  return photoHead(data);
}

export default function PhotoPage({ data }: PageProps<'/photos/[id]'>) {
  const { photo, author, more, comments, commentCount, olderBefore, olderPage, liked, signedInAs } = data;
  return (
    <>
      <PhotoDetails photo={photo} author={author} liked={liked} />
      {/* Keyed: another photo starts with an empty form, not the draft typed for this one. */}
      <Comments
        key={photo.id}
        photoId={photo.id}
        comments={comments}
        total={commentCount}
        olderBefore={olderBefore}
        olderPage={olderPage}
        signedInAs={signedInAs}
      />
      {more.length > 0 && (
        <section className="section" aria-labelledby="more-heading">
          <h2 id="more-heading">{`More from ${author.name}`}</h2>
          <PhotoGrid photos={more} headingLevel={3} />
        </section>
      )}
    </>
  );
}
