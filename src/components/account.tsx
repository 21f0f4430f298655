import { Link, usePathname } from 'switchyard-react';
import { signInHref } from '../lib/next-path';
import { signOut } from '../lib/session-actions';
import type { SiteData } from '../lib/types';

/** The header's corner: who is signed in with a way out, or a way in that comes back here. */
export function Account({ user }: SiteData) {
  const pathname = usePathname();
  if (!user) {
    return (
      <Link href={signInHref(pathname === '/sign-in' ? '/' : pathname)} className="account-link">
        Sign in
      </Link>
    );
  }
  return (
    <div className="account">
      <Link href="/me" className="account-link">
        <span className="visually-hidden">Signed in as </span>@{user.handle}
      </Link>
      <form action={signOut}>
        <button type="submit" className="button-quiet sign-out">
          Sign out
        </button>
      </form>
    </div>
  );
}
