import { store } from '../../lib/db.server';
import { listPhotos, toCard } from '../../lib/photos';

// The photos never change while the server runs, so the cards are built once; likes do change.
const CARDS = listPhotos().map(toCard);

export async function load() {
  const likes = await store();
  return {
    photos: await Promise.all(
      CARDS.map(async (card) => ({ ...card, likes: (await likes.likesOf(card.id)) ?? card.likes })),
    ),
  };
}
