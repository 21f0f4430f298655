import type { Head, HeadArgs, PageProps } from 'switchyard-react';
import { PhotoGrid } from '../../../../components/photo-grid';
import { plural } from '../../../../lib/format';

export function head({ data: { user } }: HeadArgs<PageProps<'/u/[handle]'>['data']>): Head {
  return {
    title: `${user.name} (@${user.handle}) · Switchyard`,
    description: user.bio,
    openGraph: { title: user.name, description: user.bio, type: 'profile' },
  };
}

export default function ProfilePage({ data }: PageProps<'/u/[handle]'>) {
  const { user, photos, likes } = data;
  const initials = user.name
    .split(' ')
    .map((word) => word[0] ?? '')
    .join('');
  return (
    <>
      <header className="profile">
        <span className="avatar" aria-hidden="true" style={{ backgroundColor: `hsl(${user.hue},45%,34%)` }}>
          {initials}
        </span>
        <div>
          <h1>{user.name}</h1>
          <p className="muted">{`@${user.handle}`}</p>
          <p>{user.bio}</p>
          <p className="muted">{`${plural(photos.length, 'photo')} · ${plural(likes, 'like')}`}</p>
        </div>
      </header>
      <section className="section" aria-labelledby="photos-heading">
        <h2 id="photos-heading">Photos</h2>
        <PhotoGrid photos={photos} headingLevel={3} />
      </section>
    </>
  );
}
