/**
 * A docs page's outline: the slug each heading gets as its `id`, and which pages list their
 * sections at the top. Slugs are GitHub's: lowercase words joined by hyphens, so a link written
 * by hand (`/docs/routing#parallel-slots`) keeps working; a repeat gets `-1`, `-2`, ….
 */
import type { DocsHeading } from './types';

/** A page lists its sections on top when it has more than this many. */
export const CONTENTS_MIN_SECTIONS = 4;

/** The slug of a heading's plain text: `Links: \`Href\`` is `links-href`. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{Letter}\p{Number}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
}

/**
 * Hands out unique ids for one page. `taken` holds ids the page already uses (its pictures',
 * the layout's), so that a heading never shadows one.
 */
export function createSlugger(taken: Iterable<string> = []): (text: string) => string {
  const used = new Set(taken);
  return (text) => {
    const base = slugify(text) || 'section';
    let id = base;
    for (let n = 1; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return id;
  };
}

/** The headings an on-page contents list shows, or none when the page is short. */
export function contentsOf(headings: readonly DocsHeading[]): DocsHeading[] {
  const listed = headings.filter((heading) => heading.depth <= 3);
  const sections = listed.filter((heading) => heading.depth === 2).length;
  return sections >= CONTENTS_MIN_SECTIONS ? listed : [];
}
