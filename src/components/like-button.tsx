import { useActionState } from 'react';
import { likePhoto } from '../lib/actions';
import { formatCount } from '../lib/format';

/**
 * A like: a real form posting to the `likePhoto` action, so it works without JavaScript. With
 * it, the count goes up at once (optimistic) while the action runs.
 */
export function LikeButton({ photoId, likes }: { photoId: string; likes: number }) {
  const [count, like, pending] = useActionState(likePhoto, likes);
  // The page's data is fresher once revalidated; the action's answer, until then.
  const shown = Math.max(count, likes) + (pending ? 1 : 0);
  return (
    <form action={like} className="like-form">
      <input type="hidden" name="photoId" value={photoId} />
      <button type="submit" className="button like-button" aria-busy={pending}>
        <span aria-hidden="true">♥</span> Like <span className="like-count">{formatCount(shown)}</span>
      </button>
    </form>
  );
}
