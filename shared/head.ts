/**
 * Head tags: what a route module's `head({ data, params })` returns, how the heads of a branch
 * merge, and the tags a merged head is written as. Heads merge root → leaf, a deeper one
 * replacing a shallower one's value key by key: the title, the description, the canonical URL,
 * robots, each Open Graph field, each extra meta by its name or property. The result names each
 * tag once. Rendering is `client/head-tags.tsx`.
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

/** A meta entry that is one of the fields by another name: the field, so it is written once. */
const META_FIELDS: Record<string, (head: Head, content: string) => void> = {
  'name:description': (head, content) => (head.description = content),
  'name:robots': (head, content) => (head.robots = content),
  ...Object.fromEntries(
    OPEN_GRAPH.map((field) => [
      `property:og:${field}`,
      (head: Head, content: string) => (head.openGraph = { ...head.openGraph, [field]: content }),
    ]),
  ),
};

/** A meta entry's key, and the attributes it is written with. */
function readMeta(meta: HeadMeta): { key: string; attributes: Record<string, string> } {
  const { name, property, content } = meta as { name?: string; property?: string; content: string };
  return name !== undefined
    ? { key: `name:${name}`, attributes: { name, content } }
    : { key: `property:${property!}`, attributes: { property: property!, content } };
}

/** The heads of a branch, root first, as one. */
export function mergeHead(heads: readonly Head[]): Head {
  const merged: Head = {};
  const meta = new Map<string, HeadMeta>();
  for (const head of heads) {
    for (const field of FIELDS) {
      const value = head[field];
      if (value !== undefined) merged[field] = value;
    }
    if (head.openGraph) merged.openGraph = { ...merged.openGraph, ...definedOf(head.openGraph) };
    for (const entry of head.meta ?? []) {
      const { key } = readMeta(entry);
      const field = META_FIELDS[key];
      // A replaced entry keeps its place in the order: the tags on screen stay where they are.
      if (field) field(merged, entry.content);
      else meta.set(key, entry);
    }
  }
  if (meta.size > 0) merged.meta = [...meta.values()];
  return merged;
}

function definedOf(graph: OpenGraph): OpenGraph {
  return Object.fromEntries(Object.entries(graph).filter(([, value]) => value !== undefined));
}

/** One tag of the document's head: its element, its attributes, the text of a `<title>`. */
export interface HeadTag {
  /** Unique within a head: a tag keeps its key across pages, so a new page replaces it. */
  key: string;
  tag: 'title' | 'meta' | 'link';
  attributes: Record<string, string>;
  text?: string;
}

/** The tags a merged head is written as, in a fixed order. An empty value writes no tag. */
export function headTags(head: Head): HeadTag[] {
  const tags: HeadTag[] = [];
  const meta = (key: string, attributes: Record<string, string>) => {
    if (attributes.content) tags.push({ key, tag: 'meta', attributes });
  };
  if (head.title) tags.push({ key: 'title', tag: 'title', attributes: {}, text: head.title });
  meta('name:description', { name: 'description', content: head.description ?? '' });
  if (head.canonical) {
    tags.push({ key: 'canonical', tag: 'link', attributes: { rel: 'canonical', href: head.canonical } });
  }
  meta('name:robots', { name: 'robots', content: head.robots ?? '' });
  for (const field of OPEN_GRAPH) {
    meta(`property:og:${field}`, { property: `og:${field}`, content: head.openGraph?.[field] ?? '' });
  }
  for (const entry of head.meta ?? []) {
    const { key, attributes } = readMeta(entry);
    meta(key, attributes);
  }
  return tags;
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
