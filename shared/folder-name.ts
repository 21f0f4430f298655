/**
 * Which folder names the router accepts. Square brackets belong to params only, and a param is
 * written one of three ways: `[name]`, `[...name]`, `[[...name]]`, with a name of letters,
 * digits, `_` and `-`. Any other bracketed name is refused with what is wrong and how to write
 * it, rather than read as a literal segment a URL could never reach on purpose.
 */
import { parseSegment, routeSegmentOf } from './segment.js';

const FORMS = 'write [name] for one segment, [...name] for one or more, [[...name]] for zero or more';

// Each message says what is wrong with the folder and how to write it; the caller adds the file.

/** Why `name` cannot be a folder of the app directory, or `undefined` when it can. */
export function folderNameProblem(name: string): string | undefined {
  const segment = routeSegmentOf(parseSegment(name));
  // A marker stands before the segment it intercepts: the rules are the segment's own.
  const own = segment.kind === 'static' ? segment.name : undefined;
  if (own === undefined || !/[[\]]/.test(own)) return undefined;
  if (!own.startsWith('[') || !own.endsWith(']')) {
    return `the folder "${own}" has brackets inside its name, but a param's brackets hold the whole name; ${FORMS}`;
  }
  const inner = /^\[\[?(.*?)\]?\]$/.exec(own)![1]!;
  if (/[[\]]/.test(inner) || !isBalanced(own)) {
    return `the folder "${own}" has extra or unbalanced brackets; ${FORMS}`;
  }
  if (inner.includes('…')) {
    return `the folder "${own}" holds an ellipsis character (…) where a catch-all has three periods; write [...${inner.replace(/^.*…/, '')}]`;
  }
  const periods = /^\.*/.exec(inner)![0].length;
  const param = inner.slice(periods);
  if (param === '') return `the folder "${own}" names no param; ${FORMS}`;
  if (periods !== 0 && periods !== 3) {
    return `the folder "${own}" has erroneous periods; write [...${param}] (exactly three) for a catch-all, or [${param}] (none) for one segment`;
  }
  if (own.startsWith('[[') && periods === 0) {
    return `the folder "${own}" is an optional param that is not a catch-all, which is not supported; write [[...${param}]] for zero or more segments, or [${param}] for exactly one`;
  }
  return `the param name "${param}" in the folder "${own}" may hold only letters, digits, _ and -`;
}

/** Every `[` closed by a later `]`, never nested deeper than two: `[[...a]]` yes, `[a]]` no. */
function isBalanced(name: string): boolean {
  let depth = 0;
  for (const char of name) {
    if (char === '[') depth++;
    if (char === ']') depth--;
    if (depth < 0 || depth > 2) return false;
  }
  return depth === 0;
}
