/**
 * The page both servers render for the side-by-side runs: a layout with a nav of 20 links, a
 * heading and 200 linked items from a seeded generator. The Switchyard app renders it with
 * `Link`, the bare server with `<a>`: the same elements reach the HTML either way.
 */
import type { ComponentType, ReactNode } from 'react';
import { createRandom } from '../../src/lib/random';

export interface Item {
  id: number;
  title: string;
  text: string;
}
export interface ItemsData {
  id: string;
  items: Item[];
}
export type LinkLike = ComponentType<{ href: string; children?: ReactNode }>;

export const ITEM_COUNT = 200;
/** The largest page of the bench's growth curve (`/many/:count`): larger counts are a 404. */
export const MAX_ITEMS = 20_000;

/** The item count of a `/many/:count` URL, or `null` when it is not a whole number up to MAX_ITEMS. */
export function itemCountOf(text: string): number | null {
  const count = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  return count >= 1 && count <= MAX_ITEMS ? count : null;
}
export const NAV_LINKS = 20;
const WORDS = ['amber', 'basil', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'harbor', 'iris', 'juniper'];

/** What `load` returns for `/items/:id`: the same items for the same id, on every run. */
export function itemsFor(id: string): ItemsData {
  const random = createRandom([...id].reduce((seed, c) => seed * 31 + c.charCodeAt(0), 7));
  const items = Array.from({ length: ITEM_COUNT }, (_, i) => ({
    id: i + 1,
    title: `${random.pick(WORDS)} ${random.pick(WORDS)} ${i + 1}`,
    text: Array.from({ length: 6 }, () => random.pick(WORDS)).join(' '),
  }));
  return { id, items };
}

/**
 * What `load` returns for `/cheap/:id`: the same shape from a generator that costs next to
 * nothing (one linear congruential step per item, words picked by its bits), so the server's
 * cost per request is mostly React's and the framework's, as in a bench that compares frameworks
 * rather than apps. On this page what the framework adds shows at its largest.
 */
export function cheapItemsFor(id: string, count = ITEM_COUNT): ItemsData {
  let state = Number.parseInt(id, 10) | 0;
  const items: Item[] = [];
  for (let i = 0; i < count; i++) {
    state = (Math.imul(state, 1103515245) + 12345) | 0;
    items.push({
      id: i + 1,
      title: `Item ${id}-${i}`,
      text: `${WORDS[(state >>> 8) % 10]} ${WORDS[(state >>> 12) % 10]} ${WORDS[(state >>> 16) % 10]}`,
    });
  }
  return { id, items };
}

export function Nav({ LinkAs }: { LinkAs: LinkLike }) {
  return (
    <nav>
      <ul>
        {Array.from({ length: NAV_LINKS }, (_, i) => (
          <li key={i}>
            <LinkAs href={`/items/${i + 1}`}>Section {i + 1}</LinkAs>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function ItemList({ data, LinkAs }: { data: ItemsData; LinkAs: LinkLike }) {
  return (
    <>
      <h1>Items for {data.id}</h1>
      <ul>
        {data.items.map((item) => (
          <li key={item.id}>
            <LinkAs href={`/items/${item.id}`}>{item.title}</LinkAs> <span>{item.text}</span>
          </li>
        ))}
      </ul>
    </>
  );
}
