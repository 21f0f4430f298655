/**
 * `<Link>` is a real `<a href>`: it works with JavaScript off, and costs no more than an anchor
 * to render on the server. In the browser a plain click becomes a soft navigation.
 */
import { useContext, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { isRouterClick } from './link-click';
import { RouterContext } from './router-context';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  href: string;
  /** `true` prefetches scripts and all data; `false` never prefetches; unset prefetches in view. */
  prefetch?: boolean;
  /** Replace the current history entry instead of pushing one. */
  replace?: boolean;
  /** `false` keeps the scroll position instead of moving to the top. */
  scroll?: boolean;
  children?: ReactNode;
}

/**
 * @example
 * <Link href={`/photos/${photo.id}`}>{photo.title}</Link>
 */
export function Link({ href, prefetch: _prefetch, replace, scroll, onClick, ...rest }: LinkProps) {
  const router = useContext(RouterContext)?.router;
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      !router ||
      !isRouterClick(event, { href, target: rest.target, download: rest.download }, location.href)
    )
      return;
    event.preventDefault();
    void router.navigate(href, { replace: replace ?? false, scroll: scroll ?? true });
  };
  return <a href={href} onClick={handleClick} {...rest} />;
}
