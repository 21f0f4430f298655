import type { Head } from 'switchyard-react';
import { Bomb } from '../../../components/bomb';

export function head(): Head {
  return { title: 'Caught error · Switchyard' };
}

/** A render error that this segment's `error.tsx` catches, with a retry. */
export default function CaughtErrorPage() {
  return (
    <>
      <div className="page-head">
        <h1 id="caught-error-page">Caught error</h1>
        <p className="muted">
          The button makes a component throw while rendering. This segment has an <code>error.tsx</code>: it
          shows the error in place of the page and offers a retry, while the header stays usable.
        </p>
      </div>
      <Bomb label="caught-error" />
    </>
  );
}
