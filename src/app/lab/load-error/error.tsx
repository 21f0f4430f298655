import type { ErrorProps } from 'switchyard-react';

/**
 * Catches this segment's errors, its loader's included. A loader's error reaches the browser as a
 * digest only; "Try again" fetches the page's data again.
 */
export default function LoadError({ error, reset }: ErrorProps) {
  return (
    <div className="error-box" role="alert">
      <title>Load error · Switchyard</title>
      <h1 id="load-error-heading">This page’s data could not be loaded</h1>
      <p id="load-error-message">{error.digest ? `Digest: ${error.digest}` : error.message}</p>
      <button type="button" className="button" id="retry" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
