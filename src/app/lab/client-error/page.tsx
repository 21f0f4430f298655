import type { Head } from 'switchyard-react';
import { Bomb } from '../../../components/bomb';

export function head(): Head {
  return { title: 'Client error · Switchyard' };
}

/** A render error with no `error.tsx` above it: the app-wide fallback message. */
export default function ClientErrorPage() {
  return (
    <>
      <div className="page-head">
        <h1>Client error</h1>
        <p className="muted">
          The button makes a component throw while rendering. Nothing on this page catches it, so the whole
          app shows the fallback message.
        </p>
      </div>
      <Bomb label="client-error" />
    </>
  );
}
