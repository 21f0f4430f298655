/**
 * When links prefetch: on entering the viewport, with a 200 px margin so a link about
 * to scroll in is ready when it arrives. One IntersectionObserver serves every link; each link
 * is observed until it first comes into view. A link registers as React attaches its anchor,
 * and observation starts after the next frame has painted; a link removed stops being observed
 * then too. A new page's links, and the old page's going, add nothing to the commit that shows
 * it but an entry each here.
 */

const VIEWPORT_MARGIN = '200px';

let observer: IntersectionObserver | undefined;
const callbacks = new WeakMap<Element, () => void>();
/** Registered since the last paint, observed all at once after the next (one frame at most). */
let waiting = new Set<Element>();
/** Removed since the last paint while observed, unobserved all at once after the next. */
let leaving = new Set<Element>();

/** Calls `onVisible` once, when the element comes within the margin of the viewport. */
export function observeForPrefetch(element: Element, onVisible: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => {};
  callbacks.set(element, onVisible);
  schedule();
  waiting.add(element);
  return () => {
    // Without its callback the element is inert at once; only the observer's bookkeeping waits.
    // An element that came into view was unobserved then, and one still waiting never was.
    if (!callbacks.delete(element) || waiting.delete(element)) return;
    schedule();
    leaving.add(element);
  };
}

function schedule(): void {
  if (waiting.size === 0 && leaving.size === 0) afterNextPaint(update);
}

function update(): void {
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
  // Gone first: an anchor that took a new URL is in both, and is observed afresh.
  for (const element of leaving) observer.unobserve(element);
  for (const element of waiting) observer.observe(element);
  leaving = new Set();
  waiting = new Set();
}

/** A frame's callback runs before it paints; a task queued from there runs after. */
function afterNextPaint(run: () => void): void {
  requestAnimationFrame(() => setTimeout(run, 0));
}
