/**
 * A photo with its title, author, numbers and tags: the body of the photo page, and of the
 * photo modal over the feed.
 */
import { Link } from 'switchyard-react';
import { formatCount, formatDate, tagHref } from '../lib/format';
import type { Photo, User } from '../lib/types';
import { LikeButton } from './like-button';
import { PhotoArt } from './photo-art';

export function PhotoDetails({ photo, author, titleId }: { photo: Photo; author: User; titleId?: string }) {
  return (
    <article className="photo">
      <PhotoArt seed={photo.seed} className="photo-art" />
      <div className="photo-info">
        <h1 id={titleId}>{photo.title}</h1>
        <p className="byline">
          by <Link href={`/u/${author.handle}`}>{author.name}</Link>{' '}
          <span className="muted">{`@${author.handle}`}</span>
        </p>
        <LikeButton photoId={photo.id} likes={photo.likes} />
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
  );
}
