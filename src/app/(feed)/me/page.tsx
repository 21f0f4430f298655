import { href, Link, type Head, type HeadArgs, type PageProps } from 'switchyard-react';
import { PhotoGrid } from '../../../components/photo-grid';
import { formatDate } from '../../../lib/format';

export function head({ data }: HeadArgs<PageProps<'/me'>['data']>): Head {
  return { title: `You (@${data.user.handle}) · Switchyard`, robots: 'noindex' };
}

/** The signed-in user's own page: the photos they like and the comments they wrote. */
export default function MePage({ data }: PageProps<'/me'>) {
  const { user, liked, comments } = data;
  return (
    <>
      <div className="page-head">
        <h1>{user.name}</h1>
        <p className="muted">
          {`Signed in as @${user.handle}. `}
          <Link href={href('/u/[handle]', { handle: user.handle })}>Your photos</Link>
        </p>
      </div>
      <section className="section" aria-labelledby="liked-heading">
        <h2 id="liked-heading">Photos you like</h2>
        {liked.length > 0 ? (
          <PhotoGrid photos={liked} headingLevel={3} />
        ) : (
          <p className="muted">None yet: press Like under a photo and it shows here.</p>
        )}
      </section>
      <section className="section" aria-labelledby="your-comments-heading">
        <h2 id="your-comments-heading">Your comments</h2>
        {comments.length > 0 ? (
          <ol className="comment-list">
            {comments.map((comment) => (
              <li key={comment.id} className="comment">
                <p className="comment-meta">
                  <Link href={href('/photos/[id]', { id: comment.photoId })}>{comment.photoTitle}</Link>{' '}
                  <time dateTime={comment.createdAt}>{formatDate(comment.createdAt)}</time>
                </p>
                <p className="comment-text">{comment.text}</p>
              </li>
            ))}
          </ol>
        ) : (
          <p className="muted">None yet: what you write under a photo shows here, newest first.</p>
        )}
      </section>
    </>
  );
}
