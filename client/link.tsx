/**
 * `<Link>` is a real `<a href>`: it works with JavaScript off, and costs no more than an anchor
 * to render on the server. Soft navigation and prefetching attach on the client.
 */
import type { AnchorHTMLAttributes, ReactNode } from 'react';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  href: string;
  /** `true` prefetches scripts and all data; `false` never prefetches; unset prefetches in view. */
  prefetch?: boolean;
  /** Replace the current history entry instead of pushing one. */
  replace?: boolean;
  /** Keep the scroll position instead of moving to the top. */
  scroll?: boolean;
  children?: ReactNode;
}

/**
 * @example
 * <Link href={`/photos/${photo.id}`}>{photo.title}</Link>
 */
export function Link({ href, prefetch: _prefetch, replace: _replace, scroll: _scroll, ...rest }: LinkProps) {
  return <a href={href} {...rest} />;
}
