/**
 * Scroll positions of the containers a page marks `data-scroll-restore="<name>"`, by name: read
 * when the page is left, kept with the page the router holds, and put back when history returns
 * to it. A name the page no longer has is skipped; of two containers with one name, the first
 * counts.
 */
import type { SavedScroll } from './router-types.js';

type ElementScroll = NonNullable<SavedScroll['elements']>;

export function readElementScroll(): ElementScroll | undefined {
  const saved: ElementScroll = {};
  for (const element of document.querySelectorAll<HTMLElement>('[data-scroll-restore]')) {
    const name = element.dataset.scrollRestore!;
    saved[name] ??= { top: element.scrollTop, left: element.scrollLeft };
  }
  return Object.keys(saved).length > 0 ? saved : undefined;
}

export function restoreElementScroll(saved: ElementScroll | undefined): void {
  for (const [name, { top, left }] of Object.entries(saved ?? {})) {
    const element = document.querySelector<HTMLElement>(`[data-scroll-restore="${CSS.escape(name)}"]`);
    element?.scrollTo(left, top);
  }
}
