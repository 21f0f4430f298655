import type { PageProps } from 'switchyard-react';
import { signIn } from '../../lib/session-actions';

/**
 * Pick who to be: one form per user, posted to the `signIn` action (JavaScript or not), which
 * sets the signed session cookie and goes on to `next`.
 */
export default function SignInPage({ data }: PageProps<'/sign-in'>) {
  return (
    <>
      <title>Sign in · Switchyard</title>
      <div className="page-head">
        <h1>Sign in</h1>
        <p className="muted">
          This demo has no passwords: pick one of its photographers to be. Your choice is kept in a signed
          cookie, so likes and comments are yours.
        </p>
      </div>
      <ul className="sign-in-list">
        {data.users.map((user) => (
          <li key={user.handle}>
            <form action={signIn}>
              <input type="hidden" name="handle" value={user.handle} />
              <input type="hidden" name="next" value={data.next} />
              <button type="submit" className="button sign-in-button">
                <span
                  className="avatar"
                  style={{ background: `hsl(${user.hue} 55% 45%)` }}
                  aria-hidden="true"
                >
                  {user.name[0]}
                </span>
                Sign in as {user.name}
                {data.signedInAs === user.handle ? ' (you are)' : ''}
              </button>
            </form>
          </li>
        ))}
      </ul>
    </>
  );
}
