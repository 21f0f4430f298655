/**
 * A responsive grid of photo cards. A card is a link to the photo (title, then artwork) and a
 * separate link to the author: links cannot nest, so the author sits outside the photo link.
 * Opening a photo is a view transition in which the card's art becomes the photo's.
 */
import type { MouseEvent } from 'react';
import { href, Link } from 'switchyard-react';
import { plural } from '../lib/format';
import type { PhotoCard } from '../lib/types';
import { PhotoArt } from './photo-art';

export interface PhotoGridProps {
  photos: PhotoCard[];
  /** The level of the card titles: 2 under the page's h1, 3 under a section's h2. */
  headingLevel?: 2 | 3;
}

export function PhotoGrid({ photos, headingLevel = 2 }: PhotoGridProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <ul className="grid">
      {photos.map((photo) => (
        <li key={photo.id} className="card">
          <Link
            href={href('/photos/[id]', { id: photo.id })}
            className="card-link"
            viewTransition
            onClick={markShared}
          >
            <Heading className="card-title">{photo.title}</Heading>
            <PhotoArt seed={photo.seed} />
          </Link>
          <p className="card-meta">
            <Link href={href('/u/[handle]', { handle: photo.author })}>{`@${photo.author}`}</Link>
            <span>{plural(photo.likes, 'like')}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}

/**
 * The clicked card is the one whose art the photo's art takes over (styles.css): the only card
 * marked, so that one element has the transition's name, and back finds the same card.
 */
function markShared(event: MouseEvent<HTMLAnchorElement>): void {
  document.querySelectorAll('.card-link[data-shared]').forEach((link) => link.removeAttribute('data-shared'));
  event.currentTarget.setAttribute('data-shared', '');
}
