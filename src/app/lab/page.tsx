import { Link } from 'switchyard';

/** An index of the pages that show the framework's moving parts. */
export default function LabPage() {
  return (
    <>
      <title>Lab · Switchyard</title>
      <div className="page-head">
        <h1>Lab</h1>
        <p className="muted">Pages that exist to show how the framework behaves.</p>
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
          <Link href="/?devtools" prefetch={false}>
            Devtools
          </Link>{' '}
          — the prefetch cache panel (also Alt+Shift+D on any page).
        </li>
      </ul>
    </>
  );
}
