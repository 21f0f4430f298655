/**
 * The browser's view of each commit: scroll, focus, and the screen-reader announcement of a new
 * page. Loaded with the router (`start-router.ts`): every commit after the first comes from the
 * router, and the first only restores a scroll position (`firstView` in browser-start.ts).
 */
import type { RouterSnapshot } from './router-types.js';
import type { RouterView } from './router-root.js';
import { restoreElementScroll } from './element-scroll.js';

export const browserView: RouterView = {
  afterCommit(snapshot: RouterSnapshot) {
    const { scroll } = snapshot;
    if (scroll.kind === 'top') window.scrollTo(0, 0);
    else if (scroll.kind === 'restore') {
      window.scrollTo(scroll.x, scroll.y);
      restoreElementScroll(scroll.elements);
    } else if (scroll.kind === 'hash') {
      const target = document.getElementById(decodeURIComponent(scroll.id));
      if (target) target.scrollIntoView();
      else window.scrollTo(0, 0);
    }
    if (!snapshot.announce) return; // the first render, a refresh, or data filling in a loading state
    // Focus goes to the new content, unless a dialog (an intercepted route) holds it.
    const dialog = document.querySelector<HTMLElement>('[role="dialog"][aria-modal="true"]');
    const main = document.querySelector<HTMLElement>('main') ?? document.body;
    if (!dialog) {
      if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
      main.focus({ preventScroll: true });
    }
    announcePage();
  },
};

let titleWatch: MutationObserver | undefined;

/**
 * Announces the new page by its title. A page behind a loading state gets its title later: the
 * announcement follows the title until the next page is announced (one observer at a time).
 */
function announcePage(): void {
  titleWatch?.disconnect();
  announce(document.title || document.querySelector('h1')?.textContent || location.pathname);
  titleWatch = new MutationObserver(() => {
    if (document.title) announce(document.title);
  });
  titleWatch.observe(document.head, { childList: true, subtree: true, characterData: true });
}

/** A visually hidden live region, outside React's tree, that screen readers read on change. */
function announce(message: string): void {
  let region = document.getElementById('switchyard-announcer');
  if (!region) {
    region = document.createElement('div');
    region.id = 'switchyard-announcer';
    region.setAttribute('aria-live', 'polite');
    region.setAttribute('role', 'status');
    region.style.cssText =
      'position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0';
    document.body.appendChild(region);
  }
  if (region.textContent !== message) region.textContent = message;
}
