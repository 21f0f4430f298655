import { listItems, type Item } from '../lib/items';

export interface HomeData {
  items: readonly Item[];
}

/** Runs on the server before the page renders; what it returns is the page's `data`. */
export async function load(): Promise<HomeData> {
  return { items: listItems() };
}
