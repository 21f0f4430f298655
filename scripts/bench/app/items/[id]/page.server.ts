import type { LoadArgs } from 'switchyard-react';
import { itemsFor, type ItemsData } from '../../../items';

export async function load({ params }: LoadArgs<{ id: string }>): Promise<ItemsData> {
  return itemsFor(params.id);
}
