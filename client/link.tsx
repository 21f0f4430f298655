/**
 * `<Link>` is a real `<a href>`: it works with JavaScript off, and costs no more than an anchor
 * to render on the server. In the browser a plain click becomes a soft navigation, and the
 * target is prefetched when the link comes into view or the pointer shows intent.
 */
import {
  createContext,
  useCallback,
  useContext,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';
import type { CheckedHref, Href, Register } from '../shared/href.js';
import { isRouterClick } from './link-click.js';
import { observeForPrefetch } from './prefetch-triggers.js';
import { RouterContext } from './router-context.js';

/** The props of `<Link>`: for a component that passes them on, its callers' URLs are checked. */
export interface LinkProps extends LinkBaseProps {
  /** A URL some route answers, once the app's route types are generated. */
  href: Href;
}
interface LinkBaseProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** `true` prefetches scripts and all data; `false` never prefetches; unset prefetches down to the first loading state. */
  prefetch?: boolean;
  /** Replace the current history entry instead of pushing one. */
  replace?: boolean;
  /** `false` keeps the scroll position instead of moving to the top. */
  scroll?: boolean;
  /**
   * Commit the new page inside a view transition where the browser has them (never under
   * `prefers-reduced-motion: reduce`); back and forward across it run one too.
   */
  viewTransition?: boolean;
  children?: ReactNode;
}

export interface LinkStatus {
  /** Whether the navigation this link started is on its way (until it commits or ends). */
  pending: boolean;
}

const IDLE: LinkStatus = { pending: false };
const PENDING: LinkStatus = { pending: true };
const LinkStatusContext = createContext<LinkStatus>(IDLE);

/**
 * The status of the enclosing `<Link>`'s own navigation: pending from its click until that
 * navigation commits, is superseded or leaves for a full page load. Another link's navigation,
 * `router.push` or back and forward leave it idle; outside a link it is always idle. Only the
 * clicked link and the components under it that call this re-render; a link of text alone has
 * none that could, so its click renders nothing of it.
 *
 * @example
 * function Spinner() {
 *   const { pending } = useLinkStatus();
 *   return pending ? <span className="spinner" aria-hidden /> : null;
 * }
 * <Link href="/photos/3">Photo 3 <Spinner /></Link>
 */
export function useLinkStatus(): LinkStatus {
  return useContext(LinkStatusContext);
}

/**
 * @example
 * <Link href={`/photos/${photo.id}`}>{photo.title}</Link>
 */
export const Link = (typeof document === 'undefined' ? ServerLink : BrowserLink) as LinkComponent;

/**
 * Generic in the URL when the app has route types, so that each link checks its own URL (among
 * the few paths under its first segment); a plain component taking any string without them.
 * Every good URL makes the props `LinkBaseProps & HrefProp<string>`, one type for all the links
 * of the app, so the checker builds them once: written `LinkProps<U>` (an alias) or with an
 * inline `{ href: … }`, they would be a new type per URL, each with the anchor's 300 members.
 */
type LinkComponent = Register extends { urls: object }
  ? <U extends string>(props: LinkBaseProps & HrefProp<CheckedHref<U>>) => ReactNode
  : (props: AnyLinkProps) => ReactNode;

interface HrefProp<H> {
  href: H;
}

/** The props as the link itself sees them: the URL was checked where the link was written. */
type AnyLinkProps = LinkBaseProps & { href: string };

/**
 * On the server a link is its anchor and nothing more: no hooks, no handlers (none would run
 * there), so a page of many links renders as fast as one of plain `<a>`. The browser renders the
 * same attributes, so hydration matches.
 */
function ServerLink(props: AnyLinkProps) {
  // Most links carry none of the router's own props: copied as they are, which is several times
  // cheaper than a rest pattern that leaves some out.
  if (!('prefetch' in props || 'replace' in props || 'scroll' in props || 'viewTransition' in props))
    return <a {...props} />;
  const {
    href,
    prefetch: _prefetch,
    replace: _replace,
    scroll: _scroll,
    viewTransition: _viewTransition,
    ...rest
  } = props;
  return <a href={href} {...rest} />;
}

// React's server renderer reads the name of each function component it renders, once per
// element: `displayName`, a plain property, is found before `name`, which V8 answers through a
// native accessor. A page of a few hundred links reads it a few hundred times.
ServerLink.displayName = 'Link';

function BrowserLink({
  href,
  prefetch,
  replace,
  scroll,
  viewTransition,
  onClick,
  onMouseEnter,
  onTouchStart,
  children,
  ...rest
}: AnyLinkProps) {
  const router = useContext(RouterContext)?.router;
  const kind = prefetch ? 'full' : 'auto';
  /** This link's latest click while its navigation is on its way: only its outcome ends it. */
  const [pendingClick, setPendingClick] = useState<object | null>(null);

  // A ref callback rather than an effect: React calls it as it attaches the anchor, and a page
  // of links with no effects has none for React to run or to clean up when the page changes.
  const observe = useCallback(
    (anchor: HTMLAnchorElement | null) => {
      if (!anchor || !router || prefetch === false) return;
      return observeForPrefetch(anchor, () => void router.prefetch(href, kind, 'viewport'));
    },
    [router, href, prefetch, kind],
  );

  const intent = () => {
    if (router && prefetch !== false) void router.prefetch(href, kind, 'intent');
  };
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      !router ||
      !isRouterClick(event, { href, target: rest.target, download: rest.download }, location.href)
    )
      return;
    event.preventDefault();
    const options = {
      replace: replace ?? false,
      scroll: scroll ?? true,
      viewTransition: viewTransition ?? false,
    };
    const navigation = router.navigate(href, options);
    // Only a component under the link can show its status. Text alone cannot: setting the state
    // would re-render the link for nothing, and React would copy every sibling of the link and
    // of each element above it on the way there (the 200 rows of a long list).
    if (!mayReadStatus(children)) return;
    const click = {};
    setPendingClick(click);
    const settled = () => setPendingClick((latest) => (latest === click ? null : latest));
    void navigation.then(settled);
    // Held by a blocker, nothing is on its way while the user decides: the link is not pending.
    // (Set in the same event, the two states render once.)
    if (!router.getSnapshot().pending) settled();
  };
  return (
    <a
      ref={observe}
      href={href}
      onClick={handleClick}
      onMouseEnter={(event) => {
        onMouseEnter?.(event);
        intent();
      }}
      onTouchStart={(event) => {
        onTouchStart?.(event);
        intent();
      }}
      {...rest}
    >
      {/* Inside the anchor, so that the anchor stays the same element whichever it renders. */}
      {mayReadStatus(children) ? (
        <LinkStatusContext value={pendingClick ? PENDING : IDLE}>{children}</LinkStatusContext>
      ) : (
        children
      )}
    </a>
  );
}

/**
 * Whether a component under the link may call `useLinkStatus`: only elements hold components.
 * Most links hold text alone, and a provider around it would be one more fiber per link for
 * React to create, walk and delete with every page.
 */
function mayReadStatus(children: ReactNode): boolean {
  if (Array.isArray(children)) return children.some(mayReadStatus);
  return typeof children === 'object' && children !== null;
}
