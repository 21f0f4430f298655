import type { StandardSchemaV1 } from 'switchyard-react';

export interface CommentsSearch {
  /** Show the comments older than this one: the page back through the comments. */
  before: number | undefined;
}

/**
 * The photo page's search params, as a Standard Schema: `?before=<comment id>`, a whole number
 * of at most 15 digits, or absent. Written by hand: one parameter needs no schema library.
 */
export const commentsSearch: StandardSchemaV1<unknown, CommentsSearch> = {
  '~standard': {
    version: 1,
    vendor: 'photos',
    validate(value) {
      const before = (value as Record<string, string | string[] | undefined>).before;
      if (before === undefined) return { value: { before: undefined } };
      if (typeof before !== 'string' || !/^\d{1,15}$/.test(before)) {
        return { issues: [{ message: 'Expected a comment id (a whole number)', path: ['before'] }] };
      }
      return { value: { before: Number(before) } };
    },
  },
};
