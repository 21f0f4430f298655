import { Link, type PageProps } from 'switchyard';
import { PhotoArt } from '../../../components/photo-art';
import { PhotoGrid } from '../../../components/photo-grid';
import { formatCount, formatDate, tagHref } from '../../../lib/format';
import type { PhotoPageData } from '../../../lib/types';

export default function PhotoPage({ data }: PageProps<{ id: string }, PhotoPageData>) {
  const { photo, author, more } = data;
  return (
    <>
      <title>{`${photo.title} by ${author.name} · Switchyard`}</title>
      <article className="photo">
        <PhotoArt seed={photo.seed} className="photo-art" />
        <div className="photo-info">
          <h1>{photo.title}</h1>
          <p className="byline">
            by <Link href={`/u/${author.handle}`}>{author.name}</Link>{' '}
            <span className="muted">{`@${author.handle}`}</span>
          </p>
          <dl className="stats">
            <div>
              <dt>Likes</dt>
              <dd>{formatCount(photo.likes)}</dd>
            </div>
            <div>
              <dt>Views</dt>
              <dd>{formatCount(photo.views)}</dd>
            </div>
            <div>
              <dt>Posted</dt>
              <dd>
                <time dateTime={photo.createdAt}>{formatDate(photo.createdAt)}</time>
              </dd>
            </div>
          </dl>
          <h2 className="visually-hidden">Tags</h2>
          <ul className="tags">
            {photo.tags.map((tag) => (
              <li key={tag}>
                <Link href={tagHref(tag)} className="tag">
                  {tag}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </article>
      {more.length > 0 && (
        <section className="section" aria-labelledby="more-heading">
          <h2 id="more-heading">{`More from ${author.name}`}</h2>
          <PhotoGrid photos={more} headingLevel={3} />
        </section>
      )}
    </>
  );
}
