import { Link, type PageProps } from 'switchyard-react';
import { ItemList, type ItemsData } from '../../../items';

export default function CheapItemsPage({ data }: PageProps<{ id: string }, ItemsData>) {
  return <ItemList data={data} LinkAs={Link} />;
}
