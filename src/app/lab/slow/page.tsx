import type { PageProps } from 'switchyard-react';

export default function SlowPage({ data }: PageProps<'/lab/slow'>) {
  return (
    <>
      <title>Slow data · Switchyard</title>
      <div className="page-head">
        <h1 id="slow-data">Slow data arrived</h1>
        <p className="muted">{`The server took ${data.delayMs} ms to answer.`}</p>
      </div>
    </>
  );
}
