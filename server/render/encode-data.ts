/**
 * Loader data on its way to the browser, so that the browser renders what the server did.
 * Plain JSON — objects, arrays, strings, finite numbers, booleans, null, each object once —
 * travels as itself, at JSON's cost. Anything else a loader may return (`Date`, `Map`, `Set`,
 * `BigInt`, `URL`, `RegExp`, `undefined`, `NaN`, ±`Infinity`, `-0`, an object met twice or
 * inside itself) goes through devalue: in the document as JavaScript (`uneval`, which the
 * browser's own parser runs: the first load ships no decoder), in page data as devalue's JSON
 * (`stringify`, which the router's `unflatten` reads). What neither can send (a function, a
 * symbol, a class instance) throws an `UnsendableDataError` naming the loader's file and the
 * path to the value, before anything of the response is written.
 */
import { stringify, uneval } from 'devalue';
import { DATA_KINDS, type DataKind, type PageState, type SegmentState } from '../../shared/page-state.js';
import type { RouteNode } from '../../shared/route-tree.js';
import { escapeForScript, serializeForScript } from '../../shared/serialize-for-script.js';
import { isTracked } from '../../shared/streamed-data.js';

/** The loader file behind a segment's data (`photos/[id]/page.server.ts`), for messages. */
export type LoaderFileOf = (dir: string, kind: DataKind) => string;

export class UnsendableDataError extends Error {
  constructor(
    readonly file: string,
    /** From the loader's result: `data.author.createdBy`, `data.tags.get("x")`. */
    readonly path: string,
    what: string,
  ) {
    super(
      `${file}: load returned data the browser cannot receive: ${path} is ${what}. ` +
        'Loader data may hold JSON values, undefined, NaN, Infinity, Date, Map, Set, BigInt, URL and RegExp.',
    );
    this.name = 'UnsendableDataError';
  }
}

/**
 * Whether JSON gives this value back as it is. `undefined`, `-0`, `NaN`, holes and non-plain
 * objects it changes or drops; a second reference to an object it would copy.
 *
 * Symbol keys JSON would drop and devalue refuses; only a `strict` check (development) looks for
 * them, because asking each object for its symbols costs more than the rest of the check
 * together (an array per object: ~60% of the check on a 200-item page). In production a symbol
 * key is left out, as JSON leaves it out; development names it, so it never gets that far.
 */
export function isPlainJson(value: unknown, strict = true): boolean {
  return plain(value, new Set(), strict);
}

function plain(value: unknown, seen: Set<object>, strict: boolean): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && (value !== 0 || 1 / value > 0);
    case 'object': {
      if (value === null) return true;
      // Met before when adding it leaves the set as large as it was: one lookup, not two.
      const size = seen.size;
      if (seen.add(value).size === size) return false;
      if (Array.isArray(value)) {
        // A hole reads as `undefined`, which is not plain: no `in` check per element.
        for (let i = 0; i < value.length; i++) if (!plain(value[i], seen, strict)) return false;
        return true;
      }
      // A null prototype JSON would lose. An own `__proto__` key an object literal in a script
      // would read as the prototype: devalue refuses it.
      if (Object.getPrototypeOf(value) !== Object.prototype) return false;
      for (const key in value) {
        if (key === '__proto__' || !plain((value as Record<string, unknown>)[key], seen, strict))
          return false;
      }
      return !strict || Object.getOwnPropertySymbols(value).length === 0;
    }
    default:
      return false;
  }
}

/** A loader's data as a JavaScript expression for an inline script (streamed data). */
export function dataScript(value: unknown, file: string, strict = true): string {
  if (isPlainJson(value, strict)) return serializeForScript(value);
  return escapeForScript(named(file, () => uneval(value)));
}

/**
 * The page state as a JavaScript expression for the document's bootstrap script. Rich data is
 * left out of the JSON and put in place by a function around it, one statement per place:
 * `(function(s){s.segments[1].pageData=new Date(0);return s}({…}))`.
 */
export function pageStateScript(state: PageState, fileOf: LoaderFileOf, strict = true): string {
  const statements: string[] = [];
  const segments = moveRichData(state.segments, 's.segments', strict, (segment, kind, data, path) => {
    statements.push(`${path}.${kind}=${named(fileOf(segment.dir, kind), () => uneval(data))}`);
  });
  if (statements.length === 0) return serializeForScript(state);
  const json = JSON.stringify({ ...state, segments });
  return escapeForScript(`(function(s){${statements.join(';')};return s}(${json}))`);
}

/** Segments for page data: rich data moves to `encoded`, in devalue's flattened JSON. */
export function encodeSegments(
  segments: SegmentState[],
  fileOf: LoaderFileOf,
  strict = true,
): SegmentState[] {
  return moveRichData(segments, '', strict, (segment, kind, data) => {
    const flat = named(fileOf(segment.dir, kind), () => stringify(data));
    (segment.encoded ??= {})[kind] = JSON.parse(flat) as unknown;
  });
}

/**
 * The segments with each piece of data that is not plain JSON taken out and handed to `move`
 * (with the JavaScript path to it from `at`), slots included. Only what changes is copied;
 * streamed places (promises) are left for the streamed scripts.
 */
function moveRichData(
  segments: SegmentState[],
  at: string,
  strict: boolean,
  move: (copy: SegmentState, kind: DataKind, data: unknown, path: string) => void,
): SegmentState[] {
  let changed = false;
  const out = segments.map((segment, i) => {
    const path = `${at}[${i}]`;
    let copy = segment;
    for (const kind of DATA_KINDS) {
      const data = segment[kind];
      if (data === undefined || isTracked(data) || isPlainJson(data, strict)) continue;
      if (copy === segment) copy = { ...segment };
      delete copy[kind];
      move(copy, kind, data, path);
    }
    if (segment.slots) {
      let slotsChanged = false;
      const slots = Object.fromEntries(
        Object.entries(segment.slots).map(([name, slot]) => {
          const inner = moveRichData(
            slot.segments,
            `${path}.slots[${JSON.stringify(name)}].segments`,
            strict,
            move,
          );
          if (inner === slot.segments) return [name, slot];
          slotsChanged = true;
          return [name, { ...slot, segments: inner }];
        }),
      );
      if (slotsChanged) copy = { ...copy, slots };
    }
    if (copy !== segment) changed = true;
    return copy;
  });
  return changed ? out : segments;
}

/** Runs a devalue call, turning its refusal into a message that names the loader's file. */
function named(file: string, encode: () => string): string {
  try {
    return encode();
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'DevalueError') throw error;
    const { path, value } = error as Error & { path: string; value: unknown };
    throw new UnsendableDataError(file, `data${path}`, describe(value, error.message));
  }
}

function describe(value: unknown, message: string): string {
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value !== 'object' || value === null) return `not sendable (${message})`;
  const proto = Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null;
  if (proto === null || proto === Object.prototype) {
    return message.includes('__proto__') ? 'an object with a "__proto__" key' : 'an object with symbol keys';
  }
  const name = proto.constructor?.name;
  return name ? `an instance of ${name}` : 'an object that is not plain';
}

/** The loader file of a segment's data, found in the route tree by the segment's folder. */
export function loaderFile(tree: RouteNode, dir: string, kind: DataKind): string {
  let node: RouteNode | undefined = tree;
  for (const name of dir === '' ? [] : dir.split('/')) node = node?.children.find((c) => c.name === name);
  const role = kind === 'layoutData' ? 'layout.server' : 'page.server';
  return node?.files[role] ?? `${dir === '' ? '' : `${dir}/`}${role}`;
}
