import { notFound, type LoadArgs } from 'switchyard-react';
import { cheapItemsFor, itemCountOf, type ItemsData } from '../../../items';

/** The cheap page with `count` items: the growth curve of CPU per request by page size. */
export async function load({ params }: LoadArgs<{ count: string }>): Promise<ItemsData> {
  const count = itemCountOf(params.count);
  if (count === null) notFound();
  return cheapItemsFor('1', count);
}
