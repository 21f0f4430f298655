import type { LoadArgs } from 'switchyard-react';
import { cheapItemsFor, type ItemsData } from '../../../items';

export async function load({ params }: LoadArgs<{ id: string }>): Promise<ItemsData> {
  return cheapItemsFor(params.id);
}
