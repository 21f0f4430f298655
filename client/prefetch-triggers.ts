/**
 * When links prefetch: on entering the viewport, with a 200 px margin so a link about
 * to scroll in is ready when it arrives. One IntersectionObserver serves every link; each link
 * is observed until it first comes into view.
 */

const VIEWPORT_MARGIN = '200px';

let observer: IntersectionObserver | undefined;
const callbacks = new WeakMap<Element, () => void>();

/** Calls `onVisible` once, when the element comes within the margin of the viewport. */
export function observeForPrefetch(element: Element, onVisible: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => {};
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        callbacks.get(entry.target)?.();
        callbacks.delete(entry.target);
        observer!.unobserve(entry.target);
      }
    },
    { rootMargin: VIEWPORT_MARGIN },
  );
  callbacks.set(element, onVisible);
  observer.observe(element);
  return () => {
    callbacks.delete(element);
    observer?.unobserve(element);
  };
}
