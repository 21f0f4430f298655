/**
 * What a user sees when an error reaches no `error.tsx`, word for word. The server's
 * error document and the client's last boundary both show these; a digest names a server error.
 */
export const CLIENT_ERROR_MESSAGE =
  'Application error: a client-side exception has occurred (see the browser console for more information).';

export const SERVER_ERROR_MESSAGE =
  'Application error: a server-side exception has occurred (see the server logs for more information).';

/**
 * The look of the last-resort page, server's and client's alike: a `<style>` in the page itself,
 * since the app's own stylesheets and layouts may be what failed, and nothing it loads (no font,
 * no image), so it shows whatever else is down. The demo site's font and colours, light and dark.
 */
export const FALLBACK_CSS = [
  ':root{color-scheme:light dark}',
  "body{margin:0;background:#f6f6f3;color:#1b1c20;font:16px/1.55 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif}",
  'main{max-width:40rem;margin:4rem auto;padding:0 1rem}',
  'h1{font-size:1.25rem;line-height:1.3}',
  'a{color:#2151c0;text-underline-offset:.15em}',
  "code,pre{font-family:ui-monospace,'SF Mono',Menlo,Consolas,'Liberation Mono',monospace}",
  '@media (prefers-color-scheme:dark){body{background:#121317;color:#ecedf1}a{color:#8fb3ff}}',
].join('');

/** An error from the server as the browser knows it: the fallback text and the digest only. */
export function serverError(digest: string): Error & { digest: string } {
  return Object.assign(new Error(SERVER_ERROR_MESSAGE), { digest });
}

/** The digest an error carries, if it came from the server. */
export function digestFrom(error: unknown): string | undefined {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === 'string' ? digest : undefined;
}
