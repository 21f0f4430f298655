/**
 * The merge of head tags, on the server: the heads of a branch, root → leaf, a deeper one
 * replacing a shallower one's value key by key (the title, the description, the canonical URL,
 * robots, each Open Graph field, each extra meta by its name or property), into tags that name
 * each key once. Also the check of what a module's `head` returned. The browser gets the tags.
 */
import type { Head, HeadChange, HeadMeta, HeadTag } from '../../shared/head.js';

const FIELDS = ['title', 'description', 'canonical', 'robots'] as const;
const OPEN_GRAPH = ['title', 'description', 'image', 'type'] as const;

/** A meta entry's key, and the attributes it is written with. */
function readMeta(meta: HeadMeta): { key: string; attributes: Record<string, string> } {
  const { name, property, content } = meta as { name?: string; property?: string; content: string };
  return name !== undefined
    ? { key: `name:${name}`, attributes: { name, content } }
    : { key: `property:${property!}`, attributes: { property: property!, content } };
}

/** The keys of the fields, in the order they are written: before every other meta. */
const FIELD_KEYS = [
  'title',
  'name:description',
  'canonical',
  'name:robots',
  ...OPEN_GRAPH.map((field) => `property:og:${field}`),
];

/**
 * What the heads of a branch set, root first, by key: a tag, or `null` where a head emptied it.
 * A tag's key says what it stands for, so a meta entry named like a field (`{ name:
 * 'description' }`, `{ property: 'og:title' }`) is that field. A deeper head's value replaces a
 * shallower one's in its place; an empty one removes it, and an undefined one leaves it.
 */
function mergeHeads(heads: readonly Head[]): Map<string, HeadTag | null> {
  // Insertion order is the written order, and replacing a key keeps its place.
  const tags = new Map<string, HeadTag | null>();
  const set = (key: string, tag: HeadTag['tag'], attributes: Record<string, string>, value?: string) =>
    tags.set(key, value ? { key, tag, attributes } : null);
  const meta = (key: string, attributes: Record<string, string>) =>
    set(key, 'meta', attributes, attributes.content);
  for (const head of heads) {
    const { title, description, canonical, robots, openGraph } = head;
    if (title !== undefined) {
      tags.set('title', title ? { key: 'title', tag: 'title', attributes: {}, text: title } : null);
    }
    if (description !== undefined) meta('name:description', { name: 'description', content: description });
    if (canonical !== undefined) set('canonical', 'link', { rel: 'canonical', href: canonical }, canonical);
    if (robots !== undefined) meta('name:robots', { name: 'robots', content: robots });
    for (const field of OPEN_GRAPH) {
      const content = openGraph?.[field];
      if (content !== undefined) meta(`property:og:${field}`, { property: `og:${field}`, content });
    }
    for (const entry of head.meta ?? []) {
      const { key, attributes } = readMeta(entry);
      meta(key, attributes);
    }
  }
  return tags;
}

/**
 * The tags the heads of a branch write, root first (see `mergeHeads`). The fields come first, in
 * a fixed order, then the other meta entries in the order they first appear.
 */
export function headTags(heads: readonly Head[]): HeadTag[] {
  const tags = mergeHeads(heads);
  const fields = FIELD_KEYS.map((key) => tags.get(key));
  const others = [...tags].filter(([key]) => !FIELD_KEYS.includes(key)).map(([, tag]) => tag);
  return [...fields, ...others].filter((tag): tag is HeadTag => !!tag);
}

/**
 * What the heads of a branch change in the tags of the page they are shown over: each tag they
 * set, and each key they emptied (a key alone). The browser lays them over the page's tags.
 */
export function headChanges(heads: readonly Head[]): HeadChange[] {
  return [...mergeHeads(heads)].map(([key, tag]) => tag ?? { key });
}

/**
 * What a module's `head` returned, checked: an object of the documented shape with string values,
 * or nothing. Anything else is the app's mistake, named with the file it came from.
 */
export function readHead(value: unknown, file: string): Head {
  const wrong = (what: string) => new TypeError(`${file}: head() ${what}`);
  if (value === undefined || value === null) return {};
  if (value instanceof Promise) {
    throw wrong('returned a promise: it runs as the page renders, so what it needs comes from load()');
  }
  if (typeof value !== 'object' || Array.isArray(value)) throw wrong('must return an object of head tags');
  checkKeys(value, FIELDS, ['openGraph', 'meta'], '', wrong);
  const { openGraph, meta } = value as Record<string, unknown>;
  if (openGraph !== undefined) {
    if (typeof openGraph !== 'object' || openGraph === null) throw wrong('openGraph must be an object');
    checkKeys(openGraph, OPEN_GRAPH, [], 'openGraph.', wrong);
  }
  if (meta !== undefined && !(Array.isArray(meta) && meta.every(isMeta))) {
    throw wrong('meta must be an array of { name, content } or { property, content }, all strings');
  }
  return value as Head;
}

/** Known keys only, and those in `strings` strings when present. */
function checkKeys(
  object: object,
  strings: readonly string[],
  others: readonly string[],
  prefix: string,
  wrong: (what: string) => TypeError,
): void {
  for (const [key, value] of Object.entries(object)) {
    if (strings.includes(key)) {
      if (value !== undefined && typeof value !== 'string') throw wrong(`${prefix}${key} must be a string`);
    } else if (!others.includes(key)) {
      throw wrong(`returned an unknown key "${prefix}${key}"; meta: [{ name, content }] adds any other tag`);
    }
  }
}

function isMeta(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const { name, property, content, ...rest } = entry as Record<string, unknown>;
  const named = name === undefined ? property : property === undefined ? name : undefined;
  return (
    typeof named === 'string' && named !== '' && typeof content === 'string' && Object.keys(rest).length === 0
  );
}
