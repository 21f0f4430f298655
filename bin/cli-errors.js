/**
 * Which errors of `switchyard build` and `dev` are the app author's to fix (a bad route tree,
 * config or import), so the command prints their message alone and exits 1: a stack trace of
 * the framework's insides would only hide it. Anything else is a bug and keeps its stack.
 */

/** The errors the framework throws about an app, by name (they may come back through Vite). */
const APP_ERRORS = new Set(['RouteTreeError', 'RouterConfigError']);

/**
 * The messages to print for an error about the app, or `undefined` for any other error.
 * A Vite build reports its plugins' errors together, in `errors`.
 * @param {unknown} error
 * @returns {string | undefined}
 */
export function appErrorMessage(error) {
  const all = /** @type {{ errors?: unknown[] }} */ (error)?.errors ?? [error];
  const messages = all.map(messageOf);
  return messages.length > 0 && messages.every((m) => m !== undefined) ? messages.join('\n\n') : undefined;
}

/** @param {unknown} error */
function messageOf(error) {
  if (!(error instanceof Error)) return undefined;
  const fromPlugin = /** @type {{ plugin?: unknown }} */ (error).plugin === 'switchyard';
  if (!fromPlugin && !APP_ERRORS.has(error.name)) return undefined;
  // Rolldown prefixes the plugin's name and the error's class; the author needs the sentence.
  return error.message.replace(/^\[plugin switchyard\]\s*/, '').replace(/^\w*Error: /, '');
}
