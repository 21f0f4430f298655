/**
 * Head tags: what a route module's `head({ data, params })` returns, and the tags the heads of a
 * branch write together. Heads merge root → leaf, a deeper one replacing a shallower one's value
 * key by key: the title, the description, the canonical URL, robots, each Open Graph field, each
 * extra meta by its name or property. The result names each tag once. Rendering is
 * `client/head-tags.tsx`.
 */
import type { Params } from './match-route.js';

export interface OpenGraph {
  title?: string;
  description?: string;
  /** The picture a shared link shows: an absolute URL is what most readers of Open Graph expect. */
  image?: string;
  /** `website`, `article`, `profile`, … */
  type?: string;
}

/** An extra `<meta>`: by `name` (`<meta name="theme-color">`) or by `property` (`article:author`). */
export type HeadMeta = { name: string; content: string } | { property: string; content: string };

/**
 * The tags of a page's `<head>` that a page or layout sets, from its module's `head` export:
 *
 * ```tsx
 * export function head({ data }: HeadArgs<PhotoPageData>): Head {
 *   return { title: `${data.photo.title} · Photos`, openGraph: { type: 'article' } };
 * }
 * ```
 */
export interface Head {
  title?: string;
  /** `<meta name="description">`. */
  description?: string;
  /** `<link rel="canonical">`. */
  canonical?: string;
  /** `<meta name="robots">`, e.g. `noindex`. */
  robots?: string;
  /** `<meta property="og:…">`. */
  openGraph?: OpenGraph;
  meta?: HeadMeta[];
}

/** The argument of a module's `head`: its segment's loader data and the route params. */
export interface HeadArgs<D = unknown, P extends Params = Params> {
  /** What the `load` beside the module returned: `page.server` for a page, `layout.server` for a layout. */
  data: D;
  params: P;
}

const FIELDS = ['title', 'description', 'canonical', 'robots'] as const;
const OPEN_GRAPH = ['title', 'description', 'image', 'type'] as const;

/** A meta entry's key, and the attributes it is written with. */
function readMeta(meta: HeadMeta): { key: string; attributes: Record<string, string> } {
  const { name, property, content } = meta as { name?: string; property?: string; content: string };
  return name !== undefined
    ? { key: `name:${name}`, attributes: { name, content } }
    : { key: `property:${property!}`, attributes: { property: property!, content } };
}

/** One tag of the document's head: its element, its attributes, the text of a `<title>`. */
export interface HeadTag {
  /** Unique within a head: a tag keeps its key across pages, so a new page replaces it. */
  key: string;
  tag: 'title' | 'meta' | 'link';
  attributes: Record<string, string>;
  text?: string;
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
 * The tags the heads of a branch write, root first. A tag's key says what it stands for, so a
 * meta entry named like a field (`{ name: 'description' }`, `{ property: 'og:title' }`) is that
 * field. A deeper head's value replaces a shallower one's in its place; an empty one removes it,
 * and an undefined one leaves it. The fields come first, in a fixed order, then the other meta
 * entries in the order they first appear.
 */
export function headTags(heads: readonly Head[]): HeadTag[] {
  // Insertion order is the written order, and replacing a key keeps its place.
  const tags = new Map<string, HeadTag | undefined>(FIELD_KEYS.map((key) => [key, undefined]));
  const set = (key: string, tag: HeadTag['tag'], attributes: Record<string, string>, value?: string) =>
    tags.set(key, value ? { key, tag, attributes } : undefined);
  const meta = (key: string, attributes: Record<string, string>) =>
    set(key, 'meta', attributes, attributes.content);
  for (const head of heads) {
    const { title, description, canonical, robots, openGraph } = head;
    if (title !== undefined) {
      tags.set('title', title ? { key: 'title', tag: 'title', attributes: {}, text: title } : undefined);
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
  return [...tags.values()].filter((tag) => tag !== undefined);
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
