/**
 * A photo with its title, author, numbers and tags: the body of the photo page, and of the
 * photo modal over the feed.
 */
import { href, Link } from 'switchyard-react';
import { formatCount, formatDate, tagHref } from '../lib/format';
import type { Photo, User } from '../lib/types';
import { LikeButton } from './like-button';
import { PhotoArt } from './photo-art';

interface PhotoDetailsProps {
  photo: Photo;
  author: User;
  /** Whether the signed-in user likes it; null when nobody is signed in. */
  liked: boolean | null;
  titleId?: string;
}

export function PhotoDetails({ photo, author, liked, titleId }: PhotoDetailsProps) {
  return (
    <article className="photo">
      <PhotoArt seed={photo.seed} className="photo-art" />
      <div className="photo-info">
        <h1 id={titleId}>{photo.title}</h1>
        <p className="byline">
          by <Link href={href('/u/[handle]', { handle: author.handle })}>{author.name}</Link>{' '}
          <span className="muted">{`@${author.handle}`}</span>
        </p>
        {/* Keyed: a press pending on one photo is not shown on the next one opened in its place. */}
        <LikeButton key={photo.id} photoId={photo.id} likes={photo.likes} liked={liked} />
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
