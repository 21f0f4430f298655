/**
 * The plain "Application error" page `AppErrorBoundary` shows for what no `error.tsx` caught,
 * with the digest of a server error. Its own chunk: a page that never fails never loads it.
 */
import { SERVER_ERROR_MESSAGE } from '../shared/error-messages.js';
import { CLIENT_ERROR_MESSAGE, FALLBACK_CSS } from '../shared/fallback-page.js';

export default function AppErrorPage({ digest }: { digest: string | undefined }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>Application error</title>
        <meta name="robots" content="noindex" />
        {/* Inline: the app's own stylesheets may be what failed. The same look as the server's page. */}
        <style>{FALLBACK_CSS}</style>
      </head>
      <body>
        <main role="alert">
          <h1>{digest ? SERVER_ERROR_MESSAGE : CLIENT_ERROR_MESSAGE}</h1>
          {digest ? (
            <p>
              Digest: <code>{digest}</code>
            </p>
          ) : null}
          <p>
            {/* A plain link: the router's state may be what failed. */}
            <a href="/">Go to the home page</a>
          </p>
        </main>
      </body>
    </html>
  );
}
