'use server';
/**
 * The app's server actions: each runs on the server, called from a form that works with
 * JavaScript off too. What a form sends comes off the wire whatever its types say, so each
 * action checks it and answers with a message for the form rather than throwing.
 */
import { revalidatePath } from 'switchyard-react/server';
import { addNote, findItem, MAX_NOTE_LENGTH } from './items';

export interface NoteFormState {
  /** What to show beside the form, or null. */
  error: string | null;
  /** What was typed, given back with an error so that the form keeps it (empty after a save). */
  text: string;
}

export async function saveNote(_previous: NoteFormState, form: FormData): Promise<NoteFormState> {
  const field = (name: string) => {
    const value = form instanceof FormData ? form.get(name) : null;
    return typeof value === 'string' ? value : '';
  };
  const text = field('text').trim();
  const item = findItem(field('itemId'));
  if (!item) return { error: 'That item does not exist.', text };
  if (text === '') return { error: 'Write a note before saving it.', text };
  if (text.length > MAX_NOTE_LENGTH) {
    return { error: `A note is at most ${MAX_NOTE_LENGTH} characters long.`, text };
  }
  addNote(item.id, text);
  // The item's page loads its data again, and shows the new note.
  revalidatePath(`/items/${item.id}`);
  return { error: null, text: '' };
}
