/**
 * The demo's rules for a comment a form sends: invisible characters that change the direction of
 * text are refused with a message that names them, one row per character.
 */
import { describe, expect, test } from 'vitest';
import { checkCommentInput, withoutDirectionControls } from '../../src/lib/comments';

const code = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
/** Embeddings, overrides and isolates: they can make text read otherwise than it was written. */
const FORMATTING = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];
/** Marks: a name has no use for them; a comment mixing scripts may. */
const MARKS = ['\u200E', '\u200F', '\u061C'];

describe('direction characters', () => {
  test.each([...FORMATTING, ...MARKS].map((c) => [code(c), c]))('%s in a name is refused', (name, c) => {
    expect(checkCommentInput({ author: `${c}nimda`, text: 'Lovely' })).toEqual({
      ok: false,
      error: `Your name had an invisible character that changes the direction of text (${name}). It is taken out below: check it and post again.`,
    });
    expect(withoutDirectionControls({ author: `ad${c}a`, text: 'x' }).author).toBe('ada');
  });

  test.each(FORMATTING.map((c) => [code(c), c]))('%s in a comment is refused', (name, c) => {
    expect(checkCommentInput({ author: 'ada', text: `see ${c}gpj.exe` })).toEqual({
      ok: false,
      error: `Your comment had an invisible character that changes the direction of text (${name}). It is taken out below: check it and post again.`,
    });
    expect(withoutDirectionControls({ author: 'ada', text: `a${c}b` }).text).toBe('ab');
  });

  test.each(MARKS.map((c) => [code(c), c]))('%s in a comment is kept: it reorders nothing', (_, c) => {
    const text = `\u05E9\u05DC\u05D5\u05DD${c} 42`;
    expect(checkCommentInput({ author: 'ada', text })).toEqual({ ok: true, value: { author: 'ada', text } });
    expect(withoutDirectionControls({ author: 'ada', text }).text).toBe(text);
  });

  test('a name in Hebrew or Arabic letters is a name', () => {
    for (const author of ['\u05E9\u05E8\u05D4', '\u0644\u064A\u0644\u0649']) {
      expect(checkCommentInput({ author, text: 'hi' })).toEqual({ ok: true, value: { author, text: 'hi' } });
    }
  });
});
