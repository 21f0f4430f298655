import { listPhotos, toCard } from '../../lib/photos';
import type { FeedData } from '../../lib/types';

// The photos never change while the server runs, so the feed is built once, not per request.
const FEED: FeedData = { photos: listPhotos().map(toCard) };

export async function load(): Promise<FeedData> {
  return FEED;
}
