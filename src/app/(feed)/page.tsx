import type { Head, PageProps } from 'switchyard-react';
import { PhotoGrid } from '../../components/photo-grid';
import { plural } from '../../lib/format';

export function head(): Head {
  return { title: 'Feed · Switchyard' };
}

export default function FeedPage({ data }: PageProps<'/'>) {
  return (
    <>
      <div className="page-head">
        <h1>Latest photos</h1>
        <p className="muted">{`${plural(data.photos.length, 'photo')}, newest first.`}</p>
      </div>
      <PhotoGrid photos={data.photos} />
    </>
  );
}
