import { notFound, type LoadArgs } from 'switchyard-react';
import { findItem, notesOf, type Item, type Note } from '../../../lib/items';

export interface ItemData {
  item: Item;
  notes: readonly Note[];
}

/** `/items/<id>`: the item, or the not-found page for an id that names none. */
export async function load({ params }: LoadArgs<{ id: string }>): Promise<ItemData> {
  const item = findItem(params.id);
  if (!item) notFound();
  return { item, notes: notesOf(item.id) };
}
