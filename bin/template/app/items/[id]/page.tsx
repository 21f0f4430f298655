import type { PageProps } from 'switchyard-react';
import { NoteForm } from '../../../lib/note-form';
import type { ItemData } from './page.server';

export default function ItemPage({ data }: PageProps<{ id: string }, ItemData>) {
  const { item, notes } = data;
  return (
    <>
      <title>{`${item.name} · My app`}</title>
      <h1>{item.name}</h1>
      <p>{item.description}</p>
      <h2>Notes</h2>
      {notes.length === 0 ? (
        <p>No notes yet.</p>
      ) : (
        <ul>
          {notes.map((note) => (
            <li key={note.id}>{note.text}</li>
          ))}
        </ul>
      )}
      <NoteForm itemId={item.id} />
    </>
  );
}
