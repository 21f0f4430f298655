import { Link, type PageProps } from 'switchyard-react';
import { ItemList, type ItemsData } from '../../../items';

export default function ManyItemsPage({ data }: PageProps<{ count: string }, ItemsData>) {
  return <ItemList data={data} LinkAs={Link} />;
}
