/**
 * What a user sees when an error reaches no `error.tsx`, word for word. The server's
 * error document and the client's last boundary both show these; a digest names a server error.
 */
export const CLIENT_ERROR_MESSAGE =
  'Application error: a client-side exception has occurred (see the browser console for more information).';

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
