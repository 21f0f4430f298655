import { useActionState, useEffect, useRef, useState } from 'react';
import { href, Link, useBlocker } from 'switchyard-react';
import { addComment, type CommentFormState } from '../lib/actions';
import { MAX_AUTHOR_LENGTH, MAX_COMMENT_LENGTH, type Comment } from '../lib/comments';
import { formatDate } from '../lib/format';
import { ConfirmLeave } from './confirm-leave';

const INITIAL: CommentFormState = { error: null, posted: null, values: { author: '', text: '' } };

interface CommentsProps {
  photoId: string;
  /** One page of them, oldest first. */
  comments: readonly Comment[];
  total: number;
  /** `?before=` of the next older page, or null. */
  olderBefore: number | null;
  olderPage: boolean;
  /** The signed-in user's handle: they comment as themselves, with no name to type. */
  signedInAs: string | null;
}

/**
 * A photo's comments, a page at a time (or an invitation to write the first) with links to older ones (plain links: they work with
 * JavaScript off), and a form to add one that works with JavaScript off too. A signed-in writer
 * posts as their handle (the action takes it from the session); a signed-out one types a name.
 * Leaving the page with a comment typed and not sent asks first.
 */
export function Comments({ photoId, comments, total, olderBefore, olderPage, signedInAs }: CommentsProps) {
  const [state, post, pending] = useActionState(addComment, INITIAL);
  const status = useRef<HTMLParagraphElement>(null);
  const answered = state !== INITIAL;
  // What is typed since the last answer; an answer puts the form back to its own values.
  const [draft, setDraft] = useState({ after: state, text: '' });
  const unsent = (draft.after === state ? draft.text : state.values.text).trim() !== '';
  const blocker = useBlocker(unsent && !pending);
  // After a post the button is disabled and focus would fall to <body>: the answer takes it.
  useEffect(() => {
    if (answered) status.current?.focus();
  }, [state, answered]);
  return (
    <section className="section comments" aria-labelledby="comments-heading">
      <h2 id="comments-heading">{`Comments (${total})`}</h2>
      {total === 0 && (
        <p className="comments-empty">
          <strong>No comments yet.</strong> Be the first to say what you see in this one.
        </p>
      )}
      <ol className="comment-list">
        {comments.map((c) => (
          <li key={c.id} className="comment">
            <p className="comment-meta">
              {/* Isolated: a direction character stored before they were refused stays inside the name. */}
              <strong>
                {c.authorHandle === null ? (
                  <bdi>{c.author}</bdi>
                ) : (
                  <Link href={href('/u/[handle]', { handle: c.authorHandle })}>{`@${c.authorHandle}`}</Link>
                )}
              </strong>{' '}
              <time dateTime={c.createdAt}>{formatDate(c.createdAt)}</time>
            </p>
            <p className="comment-text">{c.text}</p>
          </li>
        ))}
      </ol>
      {(olderBefore !== null || olderPage) && (
        <nav className="comment-pages" aria-label="More comments">
          {olderBefore !== null && (
            <Link href={`${href('/photos/[id]', { id: photoId })}?before=${olderBefore}`}>
              Older comments
            </Link>
          )}
          {olderPage && <Link href={href('/photos/[id]', { id: photoId })}>Newest comments</Link>}
        </nav>
      )}
      <form action={post} className="comment-form" aria-describedby="comment-error">
        <input type="hidden" name="photoId" value={photoId} />
        {signedInAs === null ? (
          <label>
            Your name
            <input
              name="author"
              maxLength={MAX_AUTHOR_LENGTH}
              autoComplete="nickname"
              defaultValue={state.values.author}
            />
          </label>
        ) : (
          <p className="comment-as">{`Commenting as @${signedInAs}`}</p>
        )}
        <label>
          Comment
          <textarea
            name="text"
            rows={3}
            maxLength={MAX_COMMENT_LENGTH}
            defaultValue={state.values.text}
            onChange={(event) => setDraft({ after: state, text: event.target.value })}
          />
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
      {blocker.state === 'blocked' && (
        <ConfirmLeave
          message="Leave this page? Your comment is not sent."
          onLeave={blocker.proceed}
          onStay={blocker.reset}
        />
      )}
    </section>
  );
}
