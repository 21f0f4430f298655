/** Shown at once while the slow data is on its way. */
export default function SlowLoading() {
  return (
    <>
      <title>Loading… · Switchyard</title>
      <div className="loading" role="status" id="slow-loading">
        <span className="spinner" aria-hidden="true" /> Loading the slow data…
      </div>
    </>
  );
}
