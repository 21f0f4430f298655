/** The bare server's browser entry: hydrate the document from the data the server wrote. */
import { hydrateRoot } from 'react-dom/client';
import type { ItemsData } from '../items';
import { Document } from './document';

const data = (self as unknown as { __BARE__: ItemsData }).__BARE__;
hydrateRoot(document, <Document data={data} />);
