/**
 * The app's data: a fixed list of items, and the notes left on them, kept in the server's
 * memory (they are gone after a restart, and each server process has its own). Only server code
 * imports this module: the loaders and the actions. Swap it for a database when you need one.
 */
export interface Item {
  id: string;
  name: string;
  description: string;
}

export interface Note {
  id: number;
  text: string;
}

/** A note longer than this is refused. */
export const MAX_NOTE_LENGTH = 280;
/** The notes an item keeps, newest last: anyone can post, so memory must stay bounded. */
export const MAX_NOTES = 20;

const ITEMS: readonly Item[] = [
  { id: '1', name: 'Switch', description: 'Moves a train from one track to another.' },
  { id: '2', name: 'Signal', description: 'Tells the driver whether the track ahead is clear.' },
  { id: '3', name: 'Turntable', description: 'Turns a locomotive around to face the other way.' },
];

const notes = new Map<string, readonly Note[]>();
let lastNoteId = 0;

export function listItems(): readonly Item[] {
  return ITEMS;
}

/** The item with this id, or `undefined` when there is none. */
export function findItem(id: string): Item | undefined {
  return ITEMS.find((item) => item.id === id);
}

export function notesOf(itemId: string): readonly Note[] {
  return notes.get(itemId) ?? [];
}

/** Adds a note to an item; past `MAX_NOTES` the oldest is dropped. */
export function addNote(itemId: string, text: string): void {
  const note = { id: ++lastNoteId, text };
  notes.set(itemId, [...notesOf(itemId), note].slice(-MAX_NOTES));
}
