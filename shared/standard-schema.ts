/**
 * The part of Standard Schema v1 (https://standardschema.dev, MIT) a route's `search` export
 * needs: zod ≥ 3.24, valibot ≥ 1 and arktype schemas all carry it under `~standard`. The spec
 * asks libraries to copy its interface rather than depend on a package.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

export type StandardResult<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardIssue[] };

export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** The output type of a schema. */
export type InferOutput<S> = S extends StandardSchemaV1<unknown, infer O> ? O : never;

export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const standard = (value as { '~standard'?: { validate?: unknown } } | null)?.['~standard'];
  return typeof standard?.validate === 'function';
}

/**
 * Validates search params with a schema: its output, or a message naming each bad parameter
 * and its issue (`before: Expected a number`).
 */
export async function validateSearch(
  schema: StandardSchemaV1,
  searchParams: unknown,
): Promise<{ value: unknown } | { message: string }> {
  const result = await schema['~standard'].validate(searchParams);
  if (!result.issues) return { value: result.value };
  const lines = result.issues.map((issue) => {
    const name = (issue.path ?? []).map((p) => String(typeof p === 'object' ? p.key : p)).join('.');
    return name ? `${name}: ${issue.message}` : issue.message;
  });
  return { message: `Invalid search params: ${lines.join('; ')}` };
}
