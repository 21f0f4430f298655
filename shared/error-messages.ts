/**
 * What a user sees of a server error that reaches no `error.tsx`, word for word, and its digest.
 * The rest of the last-resort page (the client's text, the look) is in fallback-page.ts: only
 * the page itself loads it.
 */
export const SERVER_ERROR_MESSAGE =
  'Application error: a server-side exception has occurred (see the server logs for more information).';

/** An error from the server as the browser knows it: the fallback text and the digest only. */
export function serverError(digest: string): Error & { digest: string } {
  return Object.assign(new Error(SERVER_ERROR_MESSAGE), { digest });
}

/** The digest an error carries, if it came from the server. */
export function digestFrom(error: unknown): string | undefined {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === 'string' ? digest : undefined;
}
