import type { ErrorProps } from 'switchyard-react';

/** This segment's error boundary: what went wrong, and a retry that renders the page again. */
export default function CaughtError({ error, reset }: ErrorProps) {
  return (
    <div className="error-box" role="alert">
      <title>Something went wrong · Switchyard</title>
      <h1>Something went wrong on this page</h1>
      <p id="caught-message">{error.digest ? `Digest: ${error.digest}` : error.message}</p>
      <button type="button" className="button" id="retry" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
