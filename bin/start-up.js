/**
 * Runs the app's start-up hook (`register` from its `instrumentation.server.ts`) before the
 * server listens: a database that cannot be reached stops `switchyard start` with one line on
 * stderr and exit code 1, instead of a server that answers 503 to everything. The hook has
 * `startupMs` to finish; past that the start fails the same way.
 */

import { clearTimeout, setTimeout } from 'node:timers';

/**
 * Undefined when the hook finished (or there is none), else the one line to print.
 * @param {(() => unknown) | undefined} register
 * @param {number} startupMs
 * @param {{ setTimeout: typeof setTimeout, clearTimeout: typeof clearTimeout }} timers tests pass fake ones
 * @returns {Promise<string | undefined>}
 */
export async function runStartUp(register, startupMs, timers = { setTimeout, clearTimeout }) {
  if (typeof register !== 'function') return undefined;
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const deadline = new Promise((resolve) => {
    timer = timers.setTimeout(resolve, startupMs, `the start-up hook did not finish within ${startupMs} ms`);
  });
  try {
    const late = await Promise.race([Promise.resolve(register()).then(() => undefined), deadline]);
    return late === undefined ? undefined : `Start-up failed: ${late}.`;
  } catch (error) {
    return `Start-up failed: ${oneLine(error)}`;
  } finally {
    timers.clearTimeout(timer);
  }
}

/**
 * @param {unknown} error
 * @returns {string}
 */
function oneLine(error) {
  const message = error instanceof Error ? error.message : String(error);
  // An AggregateError (every address of a host refused) has no message of its own.
  /** @type {string} */
  const text =
    message ||
    (error instanceof AggregateError ? error.errors.map((e) => oneLine(e)).join('; ') : '') ||
    String(/** @type {{ code?: unknown }} */ (error)?.code ?? 'unknown error');
  return (text.split('\n')[0] ?? '').trim();
}
