import { Link, type Head } from 'switchyard-react';

export function head(): Head {
  return { title: 'Cache lab · Switchyard' };
}

/**
 * A walk through the prefetch cache's statuses with the devtools' clock: one link of each kind
 * of entry. It lives beside the feed so that its photo link opens in the modal, as on the feed.
 */
export default function CacheLabPage() {
  return (
    <>
      <div className="page-head">
        <h1>Cache lab</h1>
        <p className="muted">
          Open this page with <Link href="/cache-lab?devtools">?devtools</Link> (or press Alt+Shift+D): the
          panel lists an entry for each link below as soon as it is in view.
        </p>
      </div>
      <ul className="lab-list">
        <li>
          <Link href="/tags">Tags</Link> — <code>auto</code>: the route&apos;s scripts and all its data, since
          it has no loading state. Fresh for 30 s, then stale until 300 s, then expired.
        </li>
        <li>
          <Link href="/lab/slow?delay=500" prefetch>
            Slow data, prefetched whole
          </Link>{' '}
          — <code>full</code>: all the data, even below the loading state. Reusable, not stale, after 30 s.
        </li>
        <li>
          <Link href="/lab/slow">Slow data</Link> — <code>auto</code> behind a loading state: the entry is{' '}
          <em>partial</em>; a click shows the loading state at once and fetches the rest.
        </li>
        <li>
          <Link href="/lab/server-error">Server error</Link> — a prefetch that fails: the entry is kept,
          marked failed, until it expires, and the link is not fetched again meanwhile.
        </li>
        <li>
          <Link href="/photos/5">Photo 5</Link> — intercepted: from this page it opens in the modal, so its
          entry&apos;s key names the slot, <code>/photos/5 (feed)/@modal</code>.
        </li>
      </ul>
      <h2>Walk through it</h2>
      <ol className="lab-list">
        <li>Wait until every entry says settled (or partial, or failed): each is fresh.</li>
        <li>
          Press <strong>+30 s</strong>: the auto entries turn stale, the full one reusable; the temporary ones
          (made by a click on nothing prefetched) expire.
        </li>
        <li>Click Tags, then come back: its entry was used, so it is reusable again for 30 s.</li>
        <li>
          Press <strong>+5 min</strong>: everything has expired, and stays listed as expired until the next
          prefetch or click drops it. Hover a link: the expired entries go, and that link is fetched anew.{' '}
          <strong>Real time</strong> puts the clock back.
        </li>
      </ol>
    </>
  );
}
