/**
 * The parameters of a `Content-Type`, read by HTTP's grammar (RFC 9110 §5.6.6): after the media
 * type, `; name=value` pairs, each value a token or a quoted string in which `\` escapes the next
 * character. A `;` or `name=` inside quotes is part of the value: `name="x;boundary=evil"` names
 * no boundary. A header that does not follow the grammar is a 400, never a guess.
 */
import { HttpError } from './http-error.js';

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
/** Any visible character, space, tab or byte past ASCII, but `"` and `\`, or a pair that escapes one. */
const QUOTED = '"((?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*)"';
/**
 * One `; name=value` (or an empty `;`, which the grammar allows), read from where the last ended,
 * and followed by the next `;` or the end.
 */
const PARAMETER = new RegExp(
  `[ \\t]*;[ \\t]*(?:(${TOKEN})=(?:(${TOKEN})|${QUOTED}))?(?=[ \\t]*(?:;|$))`,
  'y',
);

/**
 * Each parameter's value by its name in lower case, quotes and escapes taken off.
 *
 * @example
 * mediaTypeParameters('multipart/form-data; name="a;b"; Boundary="x y"'); // Map { name → 'a;b', boundary → 'x y' }
 */
export function mediaTypeParameters(contentType: string): Map<string, string> {
  const parameters = new Map<string, string>();
  const start = contentType.indexOf(';');
  if (start < 0) return parameters;
  const end = contentType.trimEnd().length;
  PARAMETER.lastIndex = start;
  while (PARAMETER.lastIndex < end) {
    const at = PARAMETER.lastIndex;
    const match = PARAMETER.exec(contentType);
    if (!match) {
      throw new HttpError(
        400,
        `The Content-Type's parameters do not parse at "${contentType.slice(at, at + 40)}": write each as ; name=value, or ; name="value" for one with spaces or ;.`,
      );
    }
    const [, name, token, quoted] = match;
    if (name === undefined) continue;
    const key = name.toLowerCase();
    // Parsers differ on which of two wins (WHATWG's takes the first): neither is taken.
    if (parameters.has(key)) throw new HttpError(400, `The Content-Type gives the parameter ${key} twice.`);
    parameters.set(key, token ?? quoted!.replace(/\\(.)/gs, '$1'));
  }
  return parameters;
}
