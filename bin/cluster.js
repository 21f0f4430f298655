/**
 * `switchyard start --workers N`: this process forks N workers that each run the server on the
 * one port (node:cluster hands connections round robin). A worker that dies after it listened
 * is replaced; one that dies before it ever listened (a bad build, a port taken) ends the whole
 * command with its exit code, since another would die the same way. SIGTERM or SIGINT goes to
 * every worker, which drains by its own shutdown deadline; this process exits when they have.
 * Without `SWITCHYARD_SECRET`, this process makes one and gives it to every worker.
 */
import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { setTimeout } from 'node:timers';

/** Time past the workers' deadline before a worker that is still there is killed outright. */
const KILL_GRACE_MS = 5_000;

/**
 * @param {{ workers: number, shutdownMs: number, log?: Pick<Console, 'log' | 'error'> }} options
 */
export function superviseWorkers({ workers, shutdownMs, log = console }) {
  /** @type {Set<number>} ids of workers that listened */
  const listened = new Set();
  let stopping = false;
  let exitCode = 0;

  // What one worker signs (a no-JS form's answer) another may read: one secret for all of them.
  const env = process.env.SWITCHYARD_SECRET
    ? {}
    : { SWITCHYARD_SECRET: randomBytes(32).toString('base64url') };
  const fork = () => {
    const worker = cluster.fork(env);
    log.log(`Worker ${worker.process.pid} started.`);
  };
  cluster.on('listening', (worker) => listened.add(worker.id));
  cluster.on('exit', (worker, code, signal) => {
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (stopping) {
      if (code !== 0) exitCode = 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
      return;
    }
    if (!listened.has(worker.id)) {
      log.error(`Worker ${worker.process.pid} exited (${how}) before it listened: stopping.`);
      stop(code || 1);
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
