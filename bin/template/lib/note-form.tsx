import { useActionState } from 'react';
import { saveNote, type NoteFormState } from './actions';

const INITIAL: NoteFormState = { error: null, text: '' };

/**
 * A form that posts to a server action. Without JavaScript the browser posts it, and the page
 * comes back rendered with the action's answer: the message shows, and the field keeps its text.
 */
export function NoteForm({ itemId }: { itemId: string }) {
  const [state, post, pending] = useActionState(saveNote, INITIAL);
  return (
    <form action={post} className="note-form">
      <input type="hidden" name="itemId" value={itemId} />
      <label htmlFor="note-text">Add a note</label>
      <textarea
        id="note-text"
        name="text"
        rows={3}
        defaultValue={state.text}
        aria-invalid={state.error !== null}
        aria-describedby="note-error"
      />
      <p id="note-error" className="form-error" role="alert">
        {state.error}
      </p>
      <button type="submit" disabled={pending}>
        {pending ? 'Saving…' : 'Save note'}
      </button>
    </form>
  );
}
