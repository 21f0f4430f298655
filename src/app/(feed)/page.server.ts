import { store } from '../../lib/db.server';
import { listPhotos, toCard } from '../../lib/photos';
import type { FeedData } from '../../lib/types';

// The photos never change while the server runs, so the cards are built once; likes do change.
const CARDS = listPhotos().map(toCard);

export async function load(): Promise<FeedData> {
  return { photos: CARDS.map((card) => ({ ...card, likes: store().likesOf(card.id) ?? card.likes })) };
}
