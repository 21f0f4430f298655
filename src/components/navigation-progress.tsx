import { useEffect, useState } from 'react';
import { useNavigationPending } from 'switchyard-react';

/** How long a navigation may take before the bar shows: a quick one should not flash it. */
const SHOW_AFTER_MS = 150;

/**
 * A thin bar at the top of the page while a navigation is on its way. It shows only after
 * 150 ms of waiting, and goes when the new page (or its loading state) commits, or when the
 * router gives up and loads the page in full.
 */
export function NavigationProgress() {
  const pending = useNavigationPending();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!pending) {
      setShown(false);
      return;
    }
    const timer = setTimeout(() => setShown(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [pending]);
  if (!pending || !shown) return null;
  return (
    <div className="navigation-progress" role="progressbar" aria-label="Loading the next page">
      <span className="navigation-progress-bar" />
    </div>
  );
}
