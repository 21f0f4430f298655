/**
 * When a click on a link is the router's to handle, and when it is the browser's. The browser
 * keeps modified clicks (new tab, new window, download), other buttons, `target`s other than
 * `_self`, downloads, and links to other origins.
 */

export interface ClickLike {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
}

export interface AnchorLike {
  target?: string | undefined;
  download?: unknown;
  href: string;
}

export function isRouterClick(event: ClickLike, anchor: AnchorLike, currentHref: string): boolean {
  if (event.defaultPrevented || event.button !== 0) return false;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  if (anchor.target && anchor.target !== '_self') return false;
  if (anchor.download !== undefined && anchor.download !== false) return false;
  let url: URL;
  try {
    url = new URL(anchor.href, currentHref);
  } catch {
    return false;
  }
  return (
    url.origin === new URL(currentHref).origin && (url.protocol === 'http:' || url.protocol === 'https:')
  );
}
