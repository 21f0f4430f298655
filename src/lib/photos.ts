/**
 * The demo's photos, generated once at start-up from a fixed seed: the same 36 photos, with the
 * same titles, tags and numbers, on every run and on every machine. Ids are "1" to "36"; the
 * higher the id, the newer the photo. A photo's subject tag gives its motif, the motif its title
 * and its art's seed, so the picture shows what the title names.
 */
import { MOTIF_NOUNS, MOTIFS, seedWith, SUBJECT_MOTIFS } from './motifs';
import { createRandom } from './random';
import type { Photo, PhotoCard } from './types';
import { listUsers, subjectsOf } from './users';

const PHOTO_COUNT = 36;
const SEED = 20250630;
/** When the newest photo was posted; older ones are spread over the months before. */
const NEWEST_AT = Date.UTC(2025, 5, 30, 18, 0);
const HOUR = 3_600_000;

const ADJECTIVES = ['Misty', 'Quiet', 'Golden', 'Early', 'Late', 'Blue', 'Soft', 'Bright', 'Hazy', 'Winter'];
/** Tags a photo may carry besides its subject. */
const EXTRA_TAGS = ['travel/europe', 'travel/asia', 'travel/americas', 'film', 'minimal'];

function generate(): Photo[] {
  const random = createRandom(SEED);
  const users = listUsers();
  const titles = new Set<string>();
  const photos: Photo[] = [];
  for (let i = 0; i < PHOTO_COUNT; i++) {
    const author = users[i % users.length]!.handle;
    const subject = random.pick(subjectsOf(author));
    const motif = random.pick(SUBJECT_MOTIFS[subject] ?? MOTIFS);
    const title = uniqueTitle(titles, () => `${random.pick(ADJECTIVES)} ${random.pick(MOTIF_NOUNS[motif])}`);
    const tags = [subject];
    if (random.next() < 0.6) tags.push(random.pick(EXTRA_TAGS));
    const views = random.int(200, 9000);
    photos.push({
      id: String(i + 1),
      title,
      author,
      tags,
      likes: Math.round(views * (0.02 + random.next() * 0.1)),
      views,
      seed: seedWith(motif, random.int(1, Math.floor(2 ** 31 / MOTIFS.length) - 1)),
      createdAt: new Date(
        NEWEST_AT - (PHOTO_COUNT - 1 - i) * 52 * HOUR - random.int(0, 20) * HOUR,
      ).toISOString(),
    });
  }
  return photos;
}

/** Draws titles until one is new; a numbered suffix keeps it unique if the words run out. */
function uniqueTitle(taken: Set<string>, draw: () => string): string {
  let title = draw();
  for (let attempt = 0; taken.has(title) && attempt < 10; attempt++) title = draw();
  for (let n = 2; taken.has(title); n++) title = `${title} ${n}`;
  taken.add(title);
  return title;
}

const PHOTOS: readonly Photo[] = generate();
const NEWEST_FIRST: readonly Photo[] = [...PHOTOS].reverse();
const BY_ID = new Map(PHOTOS.map((photo) => [photo.id, photo]));

/** All photos, newest first. */
export function listPhotos(): readonly Photo[] {
  return NEWEST_FIRST;
}

export function getPhoto(id: string): Photo | undefined {
  return BY_ID.get(id);
}

/** A user's photos, newest first (empty for an unknown handle). */
export function photosByUser(handle: string): Photo[] {
  return NEWEST_FIRST.filter((photo) => photo.author === handle);
}

export function toCard({ id, title, author, seed, likes }: Photo): PhotoCard {
  return { id, title, author, seed, likes };
}
