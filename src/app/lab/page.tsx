import { Link, type Head } from 'switchyard-react';

export function head(): Head {
  return { title: 'Lab · Switchyard' };
}

/**
 * The developers' corner, linked from the footer: pages that show the framework's moving parts.
 * Links to pages that fail on purpose are never prefetched, so opening the lab logs no error;
 * each failure shows when its link is clicked.
 */
export default function LabPage() {
  return (
    <>
      <div className="page-head">
        <h1>Lab</h1>
        <p className="muted">
          For developers: pages that exist to show how the framework behaves. The pages that fail on purpose
          are not prefetched, so each failure shows when you click it.
        </p>
      </div>
      <ul className="lab-list">
        <li>
          <Link href="/lab/slow">Slow data</Link> — a page whose data takes two seconds. A soft navigation
          shows its loading state at once; the prefetch cache keeps that loading state ready.
        </li>
        <li>
          <Link href="/lab/slow?delay=1000" prefetch>
            Slow data, prefetched whole
          </Link>{' '}
          — <code>prefetch</code> makes a <code>full</code> entry: the data is fetched before the click, so
          the click shows the page with no loading state.
        </li>
        <li>
          <Link href="/lab/slow?delay=3000" prefetch={false}>
            Slow data, never prefetched
          </Link>{' '}
          — <code>prefetch=&#123;false&#125;</code>: nothing is fetched before the click.
        </li>
        <li>
          <Link href="/lab/server-error" prefetch={false}>
            Server error
          </Link>{' '}
          — a loader that throws, with no <code>error.tsx</code> above it: a 500 page with the fallback
          message and a digest, the same digest as in the server log.
        </li>
        <li>
          <Link href="/lab/load-error" prefetch={false}>
            Load error
          </Link>{' '}
          — a loader that throws under an <code>error.tsx</code>: a 500 whose boundary renders inside the
          site&apos;s layout, with the digest and a retry.
        </li>
        <li>
          <Link href="/lab/client-error">Client error</Link> — a button that makes a component throw while
          rendering, with nothing to catch it: the app-wide fallback message.
        </li>
        <li>
          <Link href="/lab/caught-error">Caught error</Link> — the same, caught by the segment&apos;s{' '}
          <code>error.tsx</code>, with a retry.
        </li>
        <li>
          <Link href="/lab/redirect">Redirect</Link> — a 307 to the feed. With <code>?to=/photos/2</code> it
          goes there; a target on another site is refused with a 400. <Link href="/p/7">/p/7</Link> is a short
          link: a 308 to <code>/photos/7</code>.
        </li>
        <li>
          <Link href="/photos/9999" prefetch={false}>
            An unknown photo
          </Link>{' '}
          — a 404 with the site&apos;s not-found page.
        </li>
        <li>
          <Link href="/lab/refresh">Refresh</Link> — <code>router.refresh()</code>: the page&apos;s data
          loaded again and rendered in place, with what the browser holds kept.
        </li>
        <li>
          <Link href="/cache-lab">Cache lab</Link> — one link of each kind of prefetch entry, and a walk
          through their statuses with the devtools&apos; clock.
        </li>
        <li>
          <Link href="/?devtools" prefetch={false}>
            Devtools
          </Link>{' '}
          — the prefetch cache panel (also Alt+Shift+D on any page).
        </li>
      </ul>
    </>
  );
}
