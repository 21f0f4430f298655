/**
 * One folder name of the app directory, read as a route segment (SPEC R3). Groups and slots
 * take no part of the URL; an interception wraps the segment it stands for.
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

// Longest first, so that `(..)(..)` is not read as `(..)` followed by a group.
const INTERCEPT_MARKERS: readonly InterceptMarker[] = ['(..)(..)', '(...)', '(..)', '(.)'];

export function parseSegment(name: string): Segment {
  for (const marker of INTERCEPT_MARKERS) {
    if (name.startsWith(marker) && name.length > marker.length) {
      return { kind: 'intercept', marker, segment: parseSegment(name.slice(marker.length)) };
    }
  }
  let m = /^\[\[\.\.\.([^[\]]+)\]\]$/.exec(name);
  if (m) return { kind: 'optionalCatchAll', param: m[1]! };
  m = /^\[\.\.\.([^[\]]+)\]$/.exec(name);
  if (m) return { kind: 'catchAll', param: m[1]! };
  m = /^\[([^[\].]+)\]$/.exec(name);
  if (m) return { kind: 'dynamic', param: m[1]! };
  m = /^\(([^()]+)\)$/.exec(name);
  if (m) return { kind: 'group', name: m[1]! };
  if (name.startsWith('@') && name.length > 1) return { kind: 'slot', name: name.slice(1) };
  return { kind: 'static', name };
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
