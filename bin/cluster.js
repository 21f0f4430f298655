/**
 * `switchyard start --workers N`: this process forks N workers that each run the server on the
 * one port (node:cluster hands connections round robin). A worker that dies after it served a
 * while (`stableMs`, 10 s) is replaced at once. Until a first worker has listened, one that dies
 * before listening (a bad build, a port taken, a database that is not there) ends the whole
 * command with its exit code, since another would die the same way. Once the deployment is up,
 * a worker that did not really start — it died before listening (its start-up hook met a
 * database that is briefly down), or soon after (a crash on every request) — is replaced after a
 * pause that doubles from 1 s to 30 s, and starts over once a worker has served for `stableMs`:
 * no crash loop, and the workers that serve are never stopped for it. SIGTERM or SIGINT goes to every worker, which drains by its
 * own shutdown deadline; this process exits when they have. Without `SWITCHYARD_SECRET`, this
 * process makes one and gives it to every worker.
 */
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { clearTimeout, setTimeout } from 'node:timers';
import { closeUntakenOnExit } from './cluster-handoff.js';

/** Time past the workers' deadline before a worker that is still there is killed outright. */
const KILL_GRACE_MS = 5_000;
/** The first pause before a replacement that failed to start is tried again, and the longest. */
const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/**
 * @param {{ workers: number, shutdownMs: number, stableMs?: number, log?: Pick<Console, 'log' | 'error'> }} options
 */
export function superviseWorkers({ workers, shutdownMs, stableMs = 10_000, log = console }) {
  /** @type {Map<number, { at: number, stable: NodeJS.Timeout }>} workers that listened: when, and the timer that trusts them */
  const listened = new Map();
  let stopping = false;
  let exitCode = 0;
  /** Whether a worker has listened: from then on a failed start is retried, not fatal. */
  let up = false;
  let retryMs = RETRY_FIRST_MS;
  /** @type {Set<NodeJS.Timeout>} replacements waiting out their pause */
  const retries = new Set();

  // What one worker signs (a no-JS form's answer) another may read: one secret for all of them.
  const env = process.env.SWITCHYARD_SECRET
    ? {}
    : { SWITCHYARD_SECRET: randomBytes(32).toString('base64url') };
  const fork = () => {
    const worker = cluster.fork(env);
    closeUntakenOnExit(worker);
    log.log(`Worker ${worker.process.pid} started.`);
  };
  cluster.on('listening', (worker) => {
    // Said here, not only by the worker: a worker has started the deployment once this process
    // knows it listens, which can be a moment after the worker itself says so.
    log.log(`Worker ${worker.process.pid} listening.`);
    // Serving for `stableMs`, it started for real: the next failure's pause starts over.
    const stable = setTimeout(() => (retryMs = RETRY_FIRST_MS), stableMs);
    stable.unref();
    listened.set(worker.id, { at: Date.now(), stable });
    up = true;
  });
  cluster.on('exit', (worker, code, signal) => {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    const served = listened.get(worker.id);
    if (served) clearTimeout(served.stable);
    listened.delete(worker.id);
    // Before the deployment is up, every worker would fail the same way.
    if (!served && !up) {
      log.error(`Worker ${worker.process.pid} exited (${how}) before it listened: stopping.`);
      stop(code || 1);
      return;
    }
    if (!served || Date.now() - served.at < stableMs) {
      const when = served ? 'soon after it listened' : 'before it listened';
      log.error(`Worker ${worker.process.pid} exited (${how}) ${when}: starting another in ${retryMs} ms.`);
      const timer = setTimeout(() => {
        retries.delete(timer);
        fork();
      }, retryMs);
      retries.add(timer);
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      return;
    }
    log.error(`Worker ${worker.process.pid} exited (${how}): starting another.`);
    fork();
  });

  /** @param {number} code */
  const stop = (code) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const timer of retries) clearTimeout(timer);
    const alive = Object.values(cluster.workers ?? {});
    if (alive.length === 0) process.exit(exitCode);
    for (const worker of alive) worker?.process.kill('SIGTERM');
    setTimeout(() => {
      log.error('Workers still running after the shutdown deadline: killing them.');
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, shutdownMs + KILL_GRACE_MS).unref();
  };
  process.once('SIGTERM', () => stop(0));
  process.once('SIGINT', () => stop(0));

  for (let i = 0; i < workers; i++) fork();
}
