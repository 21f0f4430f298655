import { useState } from 'react';

/**
 * A button that makes this component throw while rendering: the error a boundary (or nothing)
 * must catch. A remount starts it unarmed, so a retry renders it again.
 */
export function Bomb({ label }: { label: string }) {
  const [armed, setArmed] = useState(false);
  if (armed) throw new Error(`The lab asked this component to fail (${label}).`);
  return (
    <button type="button" className="button" id="break" onClick={() => setArmed(true)}>
      Break this page
    </button>
  );
}
