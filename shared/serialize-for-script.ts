/**
 * JSON that is safe inside an inline `<script>`. `<` and `>` are escaped so that no
 * `</script>` or `<!--` can end or change the script; `&` for good measure; U+2028 and U+2029
 * because older parsers end a JS string at them. JSON.stringify already escapes NUL and lone
 * surrogates. The output is valid JSON and a valid JS expression; parsing it gives back the input.
 */

const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function serializeForScript(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/[<>&\u2028\u2029]/g, (c) => ESCAPES[c]!);
}
