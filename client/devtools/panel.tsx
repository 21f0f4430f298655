/**
 * The prefetch cache devtools panel: every entry with its key, kind, status (or `queued`), data
 * (pending, settled, partial, failed), when its status next changes and when it expires; the
 * timeline, the queue's lanes, the settings and the clock buttons (timeline.tsx); live. It reads
 * the same read-only snapshot the browser tests read, and renders in a React root of its own
 * outside the page, inside a shadow root: the app's CSS (a `header {}` rule) cannot reach it.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import type { Router } from '../router.js';
import type { DevtoolsApi } from './api.js';
import { CacheTimeline, ClockControls, STATUS_COLORS, statusLabel } from './timeline.js';

const REFRESH_MS = 250;

function Panel({ router, api, onClose }: { router: Router; api: DevtoolsApi; onClose: () => void }) {
  // Statuses change with time alone, so the panel also ticks.
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  useSyncExternalStore(router.subscribe, router.getSnapshot);
  // The same API the tests read: the snapshot, with the clock the buttons below move.
  const snapshot = api.snapshot();
  return (
    <section
      id="switchyard-devtools"
      role="region"
      aria-label="Switchyard devtools"
      style={{
        position: 'fixed',
        right: 12,
        bottom: 12,
        zIndex: 2147483647,
        maxWidth: 'min(36rem, calc(100vw - 24px))',
        maxHeight: '45vh',
        overflow: 'auto',
        background: '#fff',
        color: '#1f2328',
        border: '1px solid #d0d7de',
        borderRadius: 8,
        boxShadow: '0 8px 24px rgba(0,0,0,.18)',
        font: '12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace',
        padding: '8px 10px',
      }}
    >
      <header style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
        <strong>Prefetch cache</strong>
        <span data-devtools="queue">
          running {snapshot.queue.running.length} · waiting {snapshot.queue.waiting.length}
        </span>
        <button type="button" onClick={onClose} aria-label="Close devtools" style={{ font: 'inherit' }}>
          ×
        </button>
      </header>
      <table style={{ borderCollapse: 'collapse', width: '100%', marginTop: 6 }}>
        <thead>
          <tr style={{ textAlign: 'left' }}>
            <th scope="col">key</th>
            <th scope="col">kind</th>
            <th scope="col">status</th>
            <th scope="col">next change · expires</th>
          </tr>
        </thead>
        <tbody>
          {snapshot.entries.length === 0 && (
            <tr>
              <td colSpan={4}>
                {import.meta.env.DEV
                  ? 'No entries: the development server does not prefetch (it compiles each page on demand). A production build (npm start) fills this cache.'
                  : 'No entries yet: scroll a link into view or hover one.'}
              </td>
            </tr>
          )}
          {snapshot.entries.map((entry) => (
            <tr key={entry.key} data-devtools-entry={entry.key}>
              <td style={{ paddingRight: 8, wordBreak: 'break-all' }}>{entry.key}</td>
              <td style={{ paddingRight: 8 }}>{entry.kind}</td>
              <td style={{ paddingRight: 8, color: STATUS_COLORS[entry.status] }} data-devtools="status">
                {statusLabel(entry)}
              </td>
              <td>
                {(entry.nextChangeIn / 1000).toFixed(1)} s · {(entry.expiresIn / 1000).toFixed(1)} s
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ClockControls clock={{ ...api, clockOffset: snapshot.clockOffset }} />
      <CacheTimeline snapshot={snapshot} />
    </section>
  );
}

/** Mounts the panel; returns the function that removes it (`onClosed` hears of either way out). */
export function mountDevtools(router: Router, api: DevtoolsApi, onClosed: () => void): () => void {
  const host = document.createElement('div');
  host.dataset.switchyardDevtools = '';
  // Inherited properties (font, color) still cross a shadow root: start the host from none.
  host.style.all = 'initial';
  const container = document.createElement('div');
  host.attachShadow({ mode: 'open' }).appendChild(container);
  document.body.appendChild(host);
  const root = createRoot(container);
  let open = true;
  const unmount = () => {
    if (!open) return;
    open = false;
    root.unmount();
    host.remove();
    onClosed();
  };
  root.render(<Panel router={router} api={api} onClose={unmount} />);
  return unmount;
}

const CLOSED_KEY = 'switchyard:devtools-closed';

/** Whether the panel opens with the page: asked for in the URL, or development and not closed before. */
export function opensAtStart(dev: boolean, search: string, closedBefore: boolean): boolean {
  return new URLSearchParams(search).has('devtools') || (dev && !closedBefore);
}

let close: (() => void) | undefined;

/** Opens the panel, or closes the open one (remembered for the next page); `atStart` only opens. */
export function togglePanel(router: Router, api: DevtoolsApi, atStart: boolean): void {
  if (atStart && (close || !opensAtStart(import.meta.env.DEV, location.search, recall()))) return;
  if (close) {
    close();
    return;
  }
  remember(false);
  close = mountDevtools(router, api, () => {
    close = undefined;
    remember(true);
  });
}

// Storage may be off (a privacy mode, a sandboxed frame): the panel then just opens as before.
function recall(): boolean {
  try {
    return localStorage.getItem(CLOSED_KEY) === '1';
  } catch {
    return false;
  }
}

function remember(closed: boolean): void {
  try {
    if (closed) localStorage.setItem(CLOSED_KEY, '1');
    else localStorage.removeItem(CLOSED_KEY);
  } catch {
    // nothing to remember it in
  }
}
