/**
 * The server log's error lines. An error is logged with its stack the first time its digest is
 * seen; the same digest again (a page that fails for every visitor, a link prefetched by each of
 * them) gets one line saying how often it has recurred, never the stack again. The digests
 * remembered are bounded: past the bound the oldest is forgotten and would log its stack again.
 */
export const DIGESTS_REMEMBERED = 500;

type Write = (message: string, error?: unknown) => void;

export function logStacksOnce(write: Write, max = DIGESTS_REMEMBERED): Write {
  const seen = new Map<string, number>();
  return (message, error) => {
    const digest = /digest (\S+)$/.exec(message)?.[1];
    if (digest === undefined) return write(message, error);
    const times = seen.get(digest);
    if (times === undefined) {
      seen.set(digest, 1);
      if (seen.size > max) seen.delete(seen.keys().next().value!);
      return write(message, error);
    }
    seen.set(digest, times + 1);
    write(`${message} (again: ${times + 1} times so far; its stack was logged the first time)`);
  };
}
