import { useActionState, useState } from 'react';
import { usePathname } from 'switchyard-react';
import { setLiked } from '../lib/actions';
import { formatCount } from '../lib/format';
import type { LikeState } from '../lib/store-contract';

/** The like as a press for `wanted` leaves it: the count moves only if the like does. */
function pressed(like: LikeState, wanted: boolean): LikeState {
  return { liked: wanted, count: like.count + (wanted === like.liked ? 0 : wanted ? 1 : -1) };
}

/**
 * A like: a real form posting to the `setLiked` action, so it works without JavaScript. It
 * sends the state it wants (never "flip"), so a doubled post changes nothing more.
 *
 * Signed in (`liked` is a boolean) it is a toggle button (`aria-pressed`). While the action runs
 * it shows the like as pressed, worked out from the page's data: the action refreshes that data
 * before it ends, and the press applied to data that already has it changes nothing, so the
 * count is never counted twice. Signed out (`liked` is null), the action sends the visitor to
 * sign in and back to this page.
 */
export function LikeButton({
  photoId,
  likes,
  liked,
}: {
  photoId: string;
  likes: number;
  liked: boolean | null;
}) {
  const [, setLike, pending] = useActionState(setLiked, { liked: liked ?? false, count: likes });
  const [wanted, setWanted] = useState(false);
  const pathname = usePathname();
  const signedIn = liked !== null;
  const data = { liked: liked ?? false, count: likes };
  const shown = pending && signedIn ? pressed(data, wanted) : data;
  return (
    <form action={setLike} onSubmit={() => setWanted(!shown.liked)} className="like-form">
      <input type="hidden" name="photoId" value={photoId} />
      <input type="hidden" name="liked" value={shown.liked ? '0' : '1'} />
      <input type="hidden" name="next" value={pathname} />
      <button
        type="submit"
        className="button like-button"
        aria-pressed={signedIn ? shown.liked : undefined}
        aria-busy={pending}
      >
        <span aria-hidden="true">♥</span> Like <span className="like-count">{formatCount(shown.count)}</span>
      </button>
    </form>
  );
}
