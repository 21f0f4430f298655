/**
 * Formatting shared by the pages. Output depends only on the input, never on the locale or time
 * zone of the machine, so the server and the browser render the same text.
 */
import { href } from 'switchyard-react';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `2025-06-30T18:00:00.000Z` → `30 June 2025` (UTC). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? ''} ${date.getUTCFullYear()}`;
}

/** `12345` → `12,345`. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `1, 'photo'` → `1 photo`; `3, 'photo'` → `3 photos`. */
export function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** `nature/trees` → `/tags/nature/trees`. */
export function tagHref(path: string) {
  return href('/tags/[...path]', { path: path.split('/') });
}
