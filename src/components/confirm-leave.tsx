import { useEffect, useId, useRef } from 'react';

interface ConfirmLeaveProps {
  message: string;
  onLeave(): void;
  onStay(): void;
}

/**
 * Asks before a navigation leaves unsaved work: a modal alert dialog that takes focus (on
 * Stay, the safe answer), where Escape stays too. Closing gives focus back to what had it.
 *
 * Stay is answered at once, not from the dialog's `close` event: the browser fires that event a
 * task or more later, and by then another navigation may be the one held (a back right after
 * Stay), which it would dismiss unasked.
 */
export function ConfirmLeave({ message, onLeave, onStay }: ConfirmLeaveProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const stayButton = useRef<HTMLButtonElement>(null);
  const messageId = useId();
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
    // React renders no `autofocus` attribute, so the dialog would focus its first button.
    stayButton.current?.focus();
  }, []);
  const stay = () => {
    dialog.current?.close();
    onStay();
  };
  return (
    // Escape asks to cancel first, as it happens: the user stays.
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-labelledby={messageId}
      className="confirm"
      onCancel={(event) => {
        event.preventDefault();
        stay();
      }}
    >
      <p id={messageId}>{message}</p>
      <div className="confirm-actions">
        <button type="button" className="button button-quiet" onClick={onLeave}>
          Leave
        </button>
        <button type="button" className="button" ref={stayButton} onClick={stay}>
          Stay
        </button>
      </div>
    </dialog>
  );
}
