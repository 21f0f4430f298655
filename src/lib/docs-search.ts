/**
 * Matching a query against the docs search index, in the browser. Every word of the query must
 * appear in an entry (its page title, heading or prose, ignoring case); a word in the heading
 * counts most, then one in the page's title, then one in the prose. Ties keep the docs' order.
 */
import type { DocsSearchEntry } from './types';

/** How many results the search box lists at most. */
export const SEARCH_RESULTS_MAX = 8;

export function searchDocs(
  entries: readonly DocsSearchEntry[],
  query: string,
  max = SEARCH_RESULTS_MAX,
): DocsSearchEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const scored = entries
    .map((entry) => ({ entry, score: scoreOf(entry, words) }))
    .filter(({ score }) => score > 0);
  // Array.prototype.sort is stable: equal scores keep the index's (the docs') order.
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, max)
    .map(({ entry }) => entry);
}

/** 0 when a word is missing; otherwise 4 per word in the heading, 2 in the title, 1 in the prose. */
function scoreOf(entry: DocsSearchEntry, words: readonly string[]): number {
  const heading = entry.heading?.toLowerCase() ?? '';
  const page = entry.page.toLowerCase();
  const text = entry.text.toLowerCase();
  let score = 0;
  for (const word of words) {
    const found =
      (heading.includes(word) ? 4 : 0) + (page.includes(word) ? 2 : 0) + (text.includes(word) ? 1 : 0);
    if (found === 0) return 0;
    score += found;
  }
  // A page's own entry stands for its title: it ranks above a section that merely mentions it.
  return entry.heading ? score : score + 2;
}
