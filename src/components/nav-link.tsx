import { Link, useLinkStatus, usePathname, type Href } from 'switchyard-react';
import type { ReactNode } from 'react';

/**
 * A header link that says which section the page is in (`aria-current="page"`): the feed for
 * `/` only, another section for its path and everything below it.
 */
export function NavLink({ href, children }: { href: Href; children: ReactNode }) {
  const pathname = usePathname();
  const current = href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link href={href} {...(current ? { 'aria-current': 'page' as const } : {})}>
      {children}
      <PendingDot />
    </Link>
  );
}

/** A dot beside the header link whose page is on its way: only that link's own navigation. */
function PendingDot() {
  const { pending } = useLinkStatus();
  return pending ? <span className="nav-link-pending" aria-hidden="true" /> : null;
}
