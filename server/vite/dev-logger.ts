/**
 * The dev server's Vite logger: each error message once until the next file change. One broken
 * module imported from five places would otherwise print one "Pre-transform error" per importer.
 */
import { createLogger, type Logger } from 'vite';

/** Distinct error messages kept before the set starts again (a bound on memory, not a rule). */
const REMEMBERED_ERRORS = 200;

export function onceLogger(output: Console = console): Logger & { forget(): void } {
  const logger = createLogger('warn', { console: output });
  const seen = new Set<string>();
  const error = logger.error.bind(logger);
  return Object.assign(logger, {
    error: (message: string, options?: Parameters<Logger['error']>[1]) => {
      if (seen.has(message)) return;
      if (seen.size >= REMEMBERED_ERRORS) seen.clear();
      seen.add(message);
      error(message, options);
    },
    /** A file changed: an error may be fixed, or come back, so every one is news again. */
    forget: () => seen.clear(),
  });
}
