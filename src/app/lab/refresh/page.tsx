import { useState } from 'react';
import { useRouter, type Head, type PageProps } from 'switchyard-react';

export function head(): Head {
  return { title: 'Refresh · Switchyard' };
}

/**
 * `router.refresh()`: the page's data is loaded again and rendered in place, with no document
 * request; what the browser holds (the note typed below, focus, scroll) stays.
 */
export default function RefreshPage({ data }: PageProps<'/lab/refresh'>) {
  const router = useRouter();
  const [refreshing, setRefreshing] = useState(false);
  const refresh = () => {
    setRefreshing(true);
    void router.refresh().finally(() => setRefreshing(false));
  };
  return (
    <>
      <div className="page-head">
        <h1>Refresh</h1>
        <p className="muted">
          <code>router.refresh()</code> loads this page&apos;s data again and renders it in place. Type a
          note, then refresh: the count goes up and the note stays, because the page is not loaded again.
        </p>
      </div>
      <p id="refresh-loads" aria-live="polite">
        {`Loaded ${data.loads} ${data.loads === 1 ? 'time' : 'times'} by this server, last at ${data.loadedAt.slice(11, 19)} UTC.`}
      </p>
      <p className="refresh-form">
        <label>
          A note the refresh keeps <input id="refresh-note" />
        </label>
        <button type="button" className="button" onClick={refresh} disabled={refreshing}>
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </button>
      </p>
    </>
  );
}
