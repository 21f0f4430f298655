/**
 * Tags are paths: a photo tagged `nature/trees` is listed under `nature/trees` and under
 * `nature`. The tag list is derived from the photos once, at start-up.
 */
import { listPhotos } from './photos';
import type { Photo, TagSummary } from './types';

/** True when `tag` is `path` or below it: `nature/trees` is under `nature`, `natural` is not. */
function isUnder(tag: string, path: string): boolean {
  return tag === path || tag.startsWith(`${path}/`);
}

/** A tag's path and all its ancestors: `a/b/c` → `a`, `a/b`, `a/b/c`. */
function withAncestors(tag: string): string[] {
  const segments = tag.split('/');
  return segments.map((_, i) => segments.slice(0, i + 1).join('/'));
}

const TAGS: readonly TagSummary[] = (() => {
  const counts = new Map<string, number>();
  for (const photo of listPhotos()) {
    const paths = new Set(photo.tags.flatMap(withAncestors));
    for (const path of paths) counts.set(path, (counts.get(path) ?? 0) + 1);
  }
  return [...counts]
    .map(([path, count]) => ({ path, count }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
})();

/** Every tag path in use, parents included, sorted by path. */
export function listTags(): readonly TagSummary[] {
  return TAGS;
}

/**
 * The tag at `path` (`['nature', 'trees']`), or undefined when no photo carries it. A segment
 * with a slash in it (`/tags/nature%2Ftrees` gives `['nature/trees']`) names no tag: joined, it
 * would pass for `nature/trees`, one page under two URLs.
 */
export function getTag(path: readonly string[]): TagSummary | undefined {
  if (path.some((segment) => segment.includes('/'))) return undefined;
  const joined = path.join('/');
  return TAGS.find((tag) => tag.path === joined);
}

/** The tags exactly one level below `path` (the top-level tags for `[]`). */
export function childTags(path: readonly string[]): TagSummary[] {
  const depth = path.length + 1;
  const prefix = path.join('/');
  return TAGS.filter(
    (tag) => tag.path.split('/').length === depth && (prefix === '' || isUnder(tag.path, prefix)),
  );
}

/** Photos tagged `path` or anything below it, newest first. */
export function photosByTag(path: readonly string[]): Photo[] {
  const joined = path.join('/');
  if (joined === '') return [];
  return listPhotos().filter((photo) => photo.tags.some((tag) => isUnder(tag, joined)));
}
