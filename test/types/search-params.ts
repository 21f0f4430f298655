/**
 * Type checks of `search` (checked by `tsc -p test`): `load` and the page read the schema's
 * output type; a field it does not have, or the wrong type, is an error.
 */
import type { LoadArgs, PageProps, StandardSchemaV1 } from 'switchyard-react';

declare const schema: StandardSchemaV1<unknown, { page: number }>;
export const search = schema;

export function load({ search }: LoadArgs<{ id: string }, { page: number }>): number {
  // @ts-expect-error: the schema's output has no `sort`
  void search.sort;
  return search.page;
}

export function Page({ search }: PageProps<{ id: string }, number, { page: number }>): string {
  // @ts-expect-error: `page` is a number, not a string
  const page: string = search.page;
  return page;
}

// Without a type argument, `search` is `unknown`: it must be narrowed before use.
export function Untyped({ search }: PageProps): number {
  // @ts-expect-error: `search` is unknown
  return search.page;
}
