/**
 * The last-resort page's client-side text and look, shared by the server's error document and
 * the client's "Application error" page, which loads on demand (the server's text, which server
 * errors carry as their message, is in error-messages.ts).
 */
export const CLIENT_ERROR_MESSAGE =
  'Application error: a client-side exception has occurred (see the browser console for more information).';

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
