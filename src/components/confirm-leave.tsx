import { useEffect, useId, useRef } from 'react';

interface ConfirmLeaveProps {
  message: string;
  onLeave(): void;
  onStay(): void;
}

/**
 * Asks before a navigation leaves unsaved work: a modal alert dialog that takes focus (on
 * Stay, the safe answer), where Escape stays too. Closing gives focus back to what had it.
 */
export function ConfirmLeave({ message, onLeave, onStay }: ConfirmLeaveProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const stay = useRef<HTMLButtonElement>(null);
  const messageId = useId();
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
    // React renders no `autofocus` attribute, so the dialog would focus its first button.
    stay.current?.focus();
  }, []);
  return (
    // Escape, the Stay button and any other close all end in `close`: the user stays.
    <dialog ref={dialog} role="alertdialog" aria-labelledby={messageId} className="confirm" onClose={onStay}>
      <p id={messageId}>{message}</p>
      <div className="confirm-actions">
        <button type="button" className="button button-quiet" onClick={onLeave}>
          Leave
        </button>
        <button type="button" className="button" ref={stay} onClick={() => dialog.current?.close()}>
          Stay
        </button>
      </div>
    </dialog>
  );
}
