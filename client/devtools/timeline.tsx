/**
 * The devtools' pictures of the cache: each entry as a bar on a 0–300 s axis from its
 * `prefetchTime`, with its status bands (fresh, reusable, stale), its `lastUsedTime` marked and
 * a "now" line; the queue as two lanes; the settings in force; and the buttons that move the
 * router's clock. Pure rendering of a `DevtoolsSnapshot`, so what it draws is what tests read.
 */
import type { DevtoolsEntry, DevtoolsSnapshot } from '../router-types.js';

export const STATUS_COLORS: Record<string, string> = {
  fresh: '#1a7f37',
  reusable: '#0969da',
  stale: '#9a6700',
  expired: '#cf222e',
};

const WIDTH = 300;
const ROW = 14;
const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

interface Band {
  from: number;
  to: number;
  status: 'fresh' | 'reusable' | 'stale';
}

/** The status an entry has at each moment of its life, from its prefetch: what the rule says. */
export function bandsOf(entry: DevtoolsEntry): Band[] {
  const { freshMs, staleMs } = entry.policy;
  const used = entry.lastUsedTime === null ? undefined : entry.lastUsedTime - entry.prefetchTime;
  const freshEnd = (used ?? 0) + freshMs;
  const bands: Band[] =
    used === undefined
      ? [{ from: 0, to: freshEnd, status: 'fresh' }]
      : [
          { from: 0, to: used, status: 'fresh' },
          { from: used, to: freshEnd, status: 'reusable' },
        ];
  if (entry.kind !== 'temporary' && staleMs > freshEnd) {
    bands.push({ from: freshEnd, to: staleMs, status: entry.kind === 'auto' ? 'stale' : 'reusable' });
  }
  return bands.filter((band) => band.to > band.from);
}

function EntryBar({ entry, now, scale }: { entry: DevtoolsEntry; now: number; scale: number }) {
  const x = (ms: number) => Math.min(WIDTH, Math.max(0, ms * scale));
  const age = now - entry.prefetchTime;
  return (
    <svg
      width={WIDTH}
      height={ROW}
      role="img"
      aria-label={describe(entry, age)}
      data-devtools-bar={entry.key}
    >
      {bandsOf(entry).map((band) => (
        <rect
          key={`${band.status}${band.from}`}
          x={x(band.from)}
          y={3}
          width={x(band.to) - x(band.from)}
          height={ROW - 6}
          fill={STATUS_COLORS[band.status]}
          opacity={0.55}
        />
      ))}
      {entry.lastUsedTime !== null && (
        <rect
          x={x(entry.lastUsedTime - entry.prefetchTime) - 1}
          y={0}
          width={2}
          height={ROW}
          fill="#1f2328"
        />
      )}
      <line x1={x(age)} x2={x(age)} y1={0} y2={ROW} stroke="#cf222e" strokeWidth={2} />
    </svg>
  );
}

function describe(entry: DevtoolsEntry, age: number): string {
  const used =
    entry.lastUsedTime === null ? 'unused' : `used at ${seconds(entry.lastUsedTime - entry.prefetchTime)}`;
  return `${entry.key}: ${entry.kind}, ${used}, now at ${seconds(age)}, ${entry.status}`;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** The timeline, the queue's lanes, the budget and the settings, below the panel's table. */
export function CacheTimeline({ snapshot }: { snapshot: DevtoolsSnapshot }) {
  const { settings } = snapshot;
  const span = Math.max(settings.staleMs, ...snapshot.entries.map((e) => e.policy.staleMs));
  const scale = WIDTH / span;
  const ownPolicies = snapshot.entries.filter(
    (e) => e.policy.freshMs !== settings.freshMs || e.policy.staleMs !== settings.staleMs,
  );
  return (
    <div data-devtools="timeline">
      <p style={{ margin: '8px 0 2px' }}>
        Timeline, 0–{seconds(span)} from each prefetch ·{' '}
        {(['fresh', 'reusable', 'stale'] as const).map((status) => (
          <span key={status} style={{ color: STATUS_COLORS[status], marginRight: 6 }}>
            ■ {status}
          </span>
        ))}
        <span style={{ color: '#cf222e' }}>| now</span> · ▮ last use
      </p>
      {snapshot.entries.map((entry) => (
        <div key={entry.key} style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
          <EntryBar entry={entry} now={snapshot.now} scale={scale} />
          <span style={{ wordBreak: 'break-all' }}>
            {entry.key} · prefetched {seconds(snapshot.now - entry.prefetchTime)} ago
            {entry.lastUsedTime !== null && ` · used ${seconds(snapshot.now - entry.lastUsedTime)} ago`}
          </span>
        </div>
      ))}
      <p style={{ margin: '8px 0 2px' }}>Queue ({settings.concurrency} at once)</p>
      <dl style={{ margin: 0 }} data-devtools="lanes">
        <dt>running</dt>
        <dd style={{ margin: '0 0 4px 12px' }}>{snapshot.queue.running.join(', ') || '—'}</dd>
        <dt>waiting</dt>
        <dd style={{ margin: '0 0 4px 12px' }}>{snapshot.queue.waiting.join(', ') || '—'}</dd>
      </dl>
      <p style={{ margin: '8px 0 2px' }} data-devtools="budget">
        Budget of this page view: {kib(snapshot.budget.spentBytes)} of {kib(snapshot.budget.limitBytes)} spent
        · {snapshot.budget.inFlight} on the way · deferred: {snapshot.budget.deferred.join(', ') || '—'}
      </p>
      <p style={{ margin: '8px 0 2px' }} data-devtools="settings">
        Settings: fresh {seconds(settings.freshMs)} · stale {seconds(settings.staleMs)} · queue{' '}
        {settings.concurrency} · scripts {settings.routeScriptTimeoutMs} ms · prefetch give-up{' '}
        {seconds(settings.prefetchTimeoutMs)}
      </p>
      {ownPolicies.map((e) => (
        <p key={e.key} style={{ margin: 0 }}>
          {e.key}: its route’s own windows, fresh {seconds(e.policy.freshMs)} · stale{' '}
          {seconds(e.policy.staleMs)}
        </p>
      ))}
    </div>
  );
}

/** How an entry reads in the table: its status, or `queued` while its prefetch waits its turn. */
export function statusLabel(entry: DevtoolsEntry): string {
  if (entry.queued === 'waiting') return 'queued';
  const data = entry.data === 'settled' && entry.partial ? 'partial' : entry.data;
  return `${entry.status} · ${data}`;
}

export interface ClockApi {
  clockOffset: number;
  moveClock(ms: number): void;
  resetClock(): void;
}

/** "+30 s", "+5 min" and back to real time: the router's clock, moved for everything it times. */
export function ClockControls({ clock }: { clock: ClockApi }) {
  const button = { font: 'inherit', marginRight: 4 };
  return (
    <p style={{ margin: '6px 0' }} data-devtools="clock">
      <button type="button" style={button} onClick={() => clock.moveClock(30_000)}>
        +30 s
      </button>
      <button type="button" style={button} onClick={() => clock.moveClock(300_000)}>
        +5 min
      </button>
      <button
        type="button"
        style={button}
        onClick={() => clock.resetClock()}
        disabled={clock.clockOffset === 0}
      >
        Real time
      </button>
      {clock.clockOffset !== 0 && (
        <strong style={{ color: '#cf222e' }}>clock moved +{seconds(clock.clockOffset)}</strong>
      )}
    </p>
  );
}
