/**
 * Head tags: what a route module's `head({ data, params })` returns, and the tags the browser
 * gets for it. The server runs the heads and merges them (server/render/head-tags.ts); the page
 * state carries the result, one tag per key, which `client/head-tags.tsx` renders.
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

/** One tag of the document's head: its element, its attributes, the text of a `<title>`. */
export interface HeadTag {
  /** Unique within a head: a tag keeps its key across pages, so a new page replaces it. */
  key: string;
  tag: 'title' | 'meta' | 'link';
  attributes: Record<string, string>;
  text?: string;
}

/**
 * A change to the tags under it, key by key: a tag replaces the one with its key (or joins the
 * list), a key alone (no `tag`) removes it. What an intercepted route adds to the page under it.
 */
export type HeadChange = HeadTag | { key: string; tag?: undefined };
