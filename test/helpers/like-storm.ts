/**
 * Likes set at once by all six users, each signed in more than once (several pools, or several
 * processes): in each step every connection sets every user's like of the photo, all at once,
 * to the step's state; the state alternates, so every step moves every like, and each move is
 * raced by the same user elsewhere and by the other users on the same count. An odd number of
 * steps ends them as they began the first, so the end is known whatever the interleaving:
 * `KEEPERS` like the photo, `DROPPERS` do not. A count that misses a like, counts one twice or
 * takes one away twice ends off by that much.
 */
import { getPhoto } from '../../src/lib/photos';
import type { Store } from '../../src/lib/store-contract';

export const KEEPERS = ['ada', 'kenji', 'mira'] as const;
export const DROPPERS = ['tomas', 'noor', 'lena'] as const;
const USERS: readonly string[] = [...KEEPERS, ...DROPPERS];

export interface Storm {
  photoIds: readonly string[];
  /** Odd: the last step is the first's state. */
  steps: number;
}

/** Each of `stores` takes part in every step; a step ends when all of them have set every like. */
export async function runStorm(stores: readonly Store[], { photoIds, steps }: Storm): Promise<void> {
  for (const photoId of photoIds) {
    for (let step = 0; step < steps; step++) {
      const wanted = (handle: string) => (KEEPERS as readonly string[]).includes(handle) === (step % 2 === 0);
      await Promise.all(
        stores.flatMap((store) => USERS.map((handle) => store.setLiked(photoId, handle, wanted(handle)))),
      );
    }
  }
}

/**
 * After a storm, per photo: its count less its generated one, and who likes it; `expected`
 * says what they must be.
 */
export async function stormResult(
  store: Store,
  photoIds: readonly string[],
): Promise<Record<string, unknown>> {
  const result: Record<string, unknown> = {};
  for (const photoId of photoIds) {
    const likers = await Promise.all(
      USERS.map(async (handle) => (await store.likedBy(handle, [photoId])).size),
    );
    result[photoId] = {
      aboveBase: (await store.likesOf(photoId))! - getPhoto(photoId)!.likes,
      likers: USERS.filter((_, i) => likers[i] === 1),
    };
  }
  return result;
}

export function expected(photoIds: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(photoIds.map((id) => [id, { aboveBase: KEEPERS.length, likers: [...KEEPERS] }]));
}
