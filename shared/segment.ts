/**
 * One folder name of the app directory, read as a route segment. Groups and slots take no part
 * of the URL; an interception wraps the segment it stands for. A bracketed name that is not one
 * of the three param forms reads as static here; `folderNameProblem` refuses it.
 */

export type Segment =
  | { kind: 'static'; name: string }
  | { kind: 'dynamic'; param: string }
  | { kind: 'catchAll'; param: string }
  | { kind: 'optionalCatchAll'; param: string }
  | { kind: 'group'; name: string }
  | { kind: 'slot'; name: string }
  | { kind: 'intercept'; marker: InterceptMarker; segment: Segment };

/** How far up an interception reaches, in route segments: `(.)` 0, `(..)` 1, `(..)(..)` 2, `(...)` the root. */
export type InterceptMarker = '(.)' | '(..)' | '(..)(..)' | '(...)';

/** How many route segments up each marker reaches; `(...)` goes all the way to the root. */
export const MARKER_LEVELS: Readonly<Record<InterceptMarker, number>> = {
  '(.)': 0,
  '(..)': 1,
  '(..)(..)': 2,
  '(...)': Infinity,
};

// Longest first, so that `(..)(..)` is not read as `(..)` followed by a group.
const INTERCEPT_MARKERS: readonly InterceptMarker[] = ['(..)(..)', '(...)', '(..)', '(.)'];

export function parseSegment(name: string): Segment {
  for (const marker of INTERCEPT_MARKERS) {
    if (name.startsWith(marker) && name.length > marker.length) {
      return { kind: 'intercept', marker, segment: parseSegment(name.slice(marker.length)) };
    }
  }
  let m = /^\[\[\.\.\.([\p{L}\p{N}_-]+)\]\]$/u.exec(name);
  if (m) return { kind: 'optionalCatchAll', param: m[1]! };
  m = /^\[\.\.\.([\p{L}\p{N}_-]+)\]$/u.exec(name);
  if (m) return { kind: 'catchAll', param: m[1]! };
  m = /^\[([\p{L}\p{N}_-]+)\]$/u.exec(name);
  if (m) return { kind: 'dynamic', param: m[1]! };
  m = /^\(([^()]+)\)$/.exec(name);
  if (m) return { kind: 'group', name: m[1]! };
  if (name.startsWith('@') && name.length > 1) return { kind: 'slot', name: name.slice(1) };
  return { kind: 'static', name };
}

/** The segment that takes part in matching: an interception's own segment, or the segment itself. */
export function routeSegmentOf(segment: Segment): Segment {
  return segment.kind === 'intercept' ? routeSegmentOf(segment.segment) : segment;
}

/** Is this segment part of the URL? */
export function isUrlSegment(segment: Segment): boolean {
  if (segment.kind === 'intercept') return isUrlSegment(segment.segment);
  return segment.kind !== 'group' && segment.kind !== 'slot';
}

/** The segment as a route pattern writes it (`photos`, `[id]`, `[...path]`); `''` for groups and slots. */
export function formatSegment(segment: Segment): string {
  switch (segment.kind) {
    case 'static':
      return segment.name;
    case 'dynamic':
      return `[${segment.param}]`;
    case 'catchAll':
      return `[...${segment.param}]`;
    case 'optionalCatchAll':
      return `[[...${segment.param}]]`;
    case 'intercept':
      return formatSegment(segment.segment);
    case 'group':
    case 'slot':
      return '';
  }
}

/** The param a segment binds, if any. */
export function paramOf(segment: Segment): string | undefined {
  if (segment.kind === 'intercept') return paramOf(segment.segment);
  return 'param' in segment ? segment.param : undefined;
}

/**
 * The nodes of a branch that spell its URL, root first. An interception starts its URL afresh:
 * of the route segments above its slot it keeps all but the last `MARKER_LEVELS[marker]`, so
 * `[locale]/feed/@m/(..)photos/[id]` spells `/[locale]/photos/[id]`.
 */
export function urlNodesOf<T extends { segment: Segment | null }>(branch: readonly T[]): T[] {
  let url: T[] = [];
  let atSlot = 0;
  for (const node of branch) {
    const segment = node.segment;
    if (!segment) continue;
    if (segment.kind === 'slot') atSlot = url.length;
    if (segment.kind === 'intercept') {
      url = url.slice(0, Math.max(0, atSlot - MARKER_LEVELS[segment.marker]));
    }
    if (isUrlSegment(segment)) url.push(node);
  }
  return url;
}
