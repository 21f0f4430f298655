import { expect, test } from 'vitest';
import { addNote, findItem, listItems, MAX_NOTES, notesOf } from './items';

test('an item is found by its id, and an unknown id finds nothing', () => {
  expect(findItem('1')?.name).toBe('Switch');
  expect(findItem('999')).toBeUndefined();
  expect(findItem('')).toBeUndefined();
});

test('every listed item can be found by its id', () => {
  for (const item of listItems()) expect(findItem(item.id)).toBe(item);
});

test('an item keeps its newest notes, at most MAX_NOTES of them', () => {
  for (let i = 1; i <= MAX_NOTES + 2; i++) addNote('2', `note ${i}`);
  const kept = notesOf('2').map((note) => note.text);
  expect(kept).toHaveLength(MAX_NOTES);
  expect(kept[0]).toBe('note 3');
  expect(kept.at(-1)).toBe(`note ${MAX_NOTES + 2}`);
  expect(notesOf('3')).toEqual([]);
});
