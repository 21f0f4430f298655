/**
 * Turns an action request body into the action's arguments. JSON `{"args":[…]}` is
 * copied into fresh plain objects within fixed caps; a form body (urlencoded or multipart) is one
 * `FormData` argument. Any other media type, `text/plain` included, is a 415.
 *
 * `text/plain` is refused, not read as JSON: any page can send it without a CORS preflight, which
 * makes it the classic way to smuggle JSON past the preflight `application/json` triggers. 415
 * rather than 400 because the body may be fine; its declared type is what we do not take.
 *
 * A multipart body's boundary is read once, by the parameter grammar (Express's own `content-type`
 * parser: `name="x;boundary=evil"` names no boundary), and both the field count and the parser use
 * it: a count by another boundary than the parser's would let a body of 200,000 fields past the cap.
 */
import { parse as parseContentType } from 'content-type';
import { HttpError } from '../http/http-error.js';

/** Objects and arrays nested deeper than this in one argument are refused. */
export const MAX_ARG_DEPTH = 32;
/**
 * Object keys plus array items (the arguments themselves included) in one request, whatever
 * parts it comes in: a form's fields and the JSON of its `$args` and `$bound` share it.
 */
export const MAX_ARG_ENTRIES = 10_000;
/** The keys and items a request's parts have used of `MAX_ARG_ENTRIES` so far. */
export interface ArgBudget {
  entries: number;
}
/**
 * Keys left out of decoded objects. Dropped rather than refused: no JSON payload can carry a
 * real prototype or constructor, so nothing worth keeping is lost, and the copy is then safe to
 * hand to any merge, `Object.assign` or spread in app code.
 */
const DROPPED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
const ACCEPTED_TYPES = 'application/json, application/x-www-form-urlencoded or multipart/form-data';

/**
 * @param budget what earlier parts of the same request used; pass one object for every part.
 * @example
 * const args = await decodeActionArgs(req.headers['content-type'], await readBody(req));
 * const result = await action(...args);
 */
export async function decodeActionArgs(
  contentType: string | undefined,
  body: Buffer,
  budget: ArgBudget = { entries: 0 },
): Promise<unknown[]> {
  const mediaType = contentType?.split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'application/json') return decodeJson(body, budget);
  if (mediaType === 'application/x-www-form-urlencoded')
    return [await decodeForm(contentType!, body, budget)];
  if (mediaType === 'multipart/form-data') {
    const boundary = multipartBoundary(contentType!);
    // The parser gets the boundary the fields were counted by, and no parameter it could read otherwise.
    return [await decodeForm(`multipart/form-data; boundary="${boundary}"`, body, budget, boundary)];
  }
  throw new HttpError(415, `Server actions take ${ACCEPTED_TYPES}, not ${mediaType || 'an untyped body'}.`);
}

function decodeJson(body: Buffer, budget: ArgBudget): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw new HttpError(400, 'The request body is not valid JSON.');
  }
  const args =
    typeof parsed === 'object' && parsed !== null ? (parsed as { args?: unknown }).args : undefined;
  if (!Array.isArray(args)) throw new HttpError(400, 'The JSON body must be an object with an "args" array.');
  budget.entries += args.length;
  if (budget.entries > MAX_ARG_ENTRIES) throw tooMany();
  return args.map((arg) => copy(arg, 0, budget));
}

/** A copy of a JSON value into objects made here, so no key of the payload reaches a prototype. */
function copy(value: unknown, depth: number, budget: ArgBudget): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth === MAX_ARG_DEPTH) {
    throw new HttpError(400, `Action arguments nest deeper than ${MAX_ARG_DEPTH} levels.`);
  }
  const entries = Array.isArray(value) ? value.length : Object.keys(value).length;
  budget.entries += entries;
  if (budget.entries > MAX_ARG_ENTRIES) throw tooMany();
  if (Array.isArray(value)) return value.map((item: unknown) => copy(item, depth + 1, budget));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!DROPPED_KEYS.has(key)) result[key] = copy(item, depth + 1, budget);
  }
  return result;
}

function tooMany(): HttpError {
  return new HttpError(400, `Action arguments hold more than ${MAX_ARG_ENTRIES} keys and items.`);
}

/**
 * A multipart body's boundary (RFC 2046 §5.1.1): 1 to 70 characters of a small set, which never
 * needs quoting inside quotes. Read by the parameter grammar, as the form parser reads it.
 */
function multipartBoundary(contentType: string): string {
  const boundary = parseContentType(contentType).parameters['boundary'];
  if (boundary === undefined) {
    throw new HttpError(400, 'A multipart/form-data body needs a boundary parameter in its Content-Type.');
  }
  if (!/^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/.test(boundary)) {
    throw new HttpError(
      400,
      "The multipart boundary must be 1 to 70 letters, digits, spaces or '()+_,-./:=? and not end in a space.",
    );
  }
  return boundary;
}

/** `boundary` for a multipart body, none for an urlencoded one. */
async function decodeForm(
  contentType: string,
  body: Buffer,
  budget: ArgBudget,
  boundary?: string,
): Promise<FormData> {
  // Counted before the parser runs: a 1 MiB body of 200,000 empty fields would cost the parser
  // far more than it costs to send, only to be refused after.
  const left = MAX_ARG_ENTRIES - budget.entries;
  if (countFields(body, boundary, left) > left) throw tooMany();
  let form: FormData;
  try {
    // The WHATWG parser, the same one `fetch` uses, over the bytes already read and capped.
    const request = new Request('http://action.invalid/', {
      method: 'POST',
      headers: { 'content-type': contentType },
      // A copy: `BodyInit` takes bytes over an `ArrayBuffer`, and a Buffer's type allows a shared one.
      body: new Uint8Array(body),
    });
    form = await request.formData();
  } catch {
    throw new HttpError(400, 'The form body could not be parsed.');
  }
  budget.entries += [...form.keys()].length;
  if (budget.entries > MAX_ARG_ENTRIES) throw tooMany();
  return form;
}

/**
 * The fields of a form body, counted by their separators without decoding anything, and only up
 * to `cap + 1`: `&` for urlencoded bodies, the boundary line for multipart ones (`boundary` given).
 */
export function countFields(body: Buffer, boundary: string | undefined, cap: number): number {
  const separator = boundary === undefined ? '&' : `--${boundary}`;
  // A multipart body's last boundary closes it rather than opening a field.
  let count = boundary === undefined ? 1 : -1;
  for (let at = body.indexOf(separator); at !== -1 && count <= cap; at = body.indexOf(separator, at + 1))
    count++;
  return Math.max(count, 0);
}
