import { useActionState, useEffect, useRef } from 'react';
import { addComment, type CommentFormState } from '../lib/actions';
import { MAX_AUTHOR_LENGTH, MAX_COMMENT_LENGTH, type Comment } from '../lib/comments';
import { formatDate } from '../lib/format';

const INITIAL: CommentFormState = { error: null, posted: null, values: { author: '', text: '' } };

/** A photo's comments, and a form to add one that works with JavaScript off too. */
export function Comments({ photoId, comments }: { photoId: string; comments: readonly Comment[] }) {
  const [state, post, pending] = useActionState(addComment, INITIAL);
  const status = useRef<HTMLParagraphElement>(null);
  const answered = state !== INITIAL;
  // After a post the button is disabled and focus would fall to <body>: the answer takes it.
  useEffect(() => {
    if (answered) status.current?.focus();
  }, [state, answered]);
  return (
    <section className="section comments" aria-labelledby="comments-heading">
      <h2 id="comments-heading">{`Comments (${comments.length})`}</h2>
      <ol className="comment-list">
        {comments.map((c) => (
          <li key={c.id} className="comment">
            <p className="comment-meta">
              <strong>{c.author}</strong> <time dateTime={c.createdAt}>{formatDate(c.createdAt)}</time>
            </p>
            <p className="comment-text">{c.text}</p>
          </li>
        ))}
      </ol>
      <form action={post} className="comment-form" aria-describedby="comment-error">
        <input type="hidden" name="photoId" value={photoId} />
        <label>
          Your name
          <input
            name="author"
            maxLength={MAX_AUTHOR_LENGTH}
            autoComplete="nickname"
            defaultValue={state.values.author}
          />
        </label>
        <label>
          Comment
          <textarea name="text" rows={3} maxLength={MAX_COMMENT_LENGTH} defaultValue={state.values.text} />
        </label>
        {/* Without JavaScript the page comes back with this state: autofocus brings the answer into view. */}
        <p
          id="comment-error"
          ref={status}
          tabIndex={-1}
          autoFocus={answered}
          className={state.error ? 'form-error' : 'form-status'}
          role="alert"
        >
          {state.error ?? (state.posted ? 'Your comment was posted.' : null)}
        </p>
        <button type="submit" className="button" disabled={pending}>
          {pending ? 'Posting…' : 'Post comment'}
        </button>
      </form>
    </section>
  );
}
