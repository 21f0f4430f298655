import { useEffect, useState } from 'react';
import { usePathname } from 'switchyard-react';

/**
 * Counts the pages seen in this visit. It lives in the root layout, so it keeps counting across
 * soft navigations; a full page load starts it again.
 */
export function PagesViewed() {
  const pathname = usePathname();
  const [count, setCount] = useState(0);
  useEffect(() => setCount((n) => n + 1), [pathname]);
  return (
    <span className="pages-viewed" data-testid="pages-viewed">
      {count === 1 ? '1 page' : `${count} pages`} this visit
    </span>
  );
}
