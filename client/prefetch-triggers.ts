/**
 * When links prefetch: on entering the viewport, with a 200 px margin so a link about
 * to scroll in is ready when it arrives. One IntersectionObserver serves every link; each link
 * is observed until it first comes into view. A link registers as React attaches its anchor,
 * and observation starts after the next frame has painted: a new page's links add nothing to the
 * commit that shows them but an entry each here.
 */

const VIEWPORT_MARGIN = '200px';

let observer: IntersectionObserver | undefined;
const callbacks = new WeakMap<Element, () => void>();
/** Registered since the last paint, observed all at once after the next (one frame at most). */
let waiting = new Set<Element>();

/** Calls `onVisible` once, when the element comes within the margin of the viewport. */
export function observeForPrefetch(element: Element, onVisible: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => {};
  callbacks.set(element, onVisible);
  if (waiting.size === 0) afterNextPaint(observeWaiting);
  waiting.add(element);
  return () => {
    callbacks.delete(element);
    if (!waiting.delete(element)) observer?.unobserve(element);
  };
}

function observeWaiting(): void {
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
  const elements = waiting;
  waiting = new Set();
  for (const element of elements) observer.observe(element);
}

/** A frame's callback runs before it paints; a task queued from there runs after. */
function afterNextPaint(run: () => void): void {
  requestAnimationFrame(() => setTimeout(run, 0));
}
