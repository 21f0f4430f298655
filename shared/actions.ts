/**
 * The server-action protocol. A reference POSTs to `/_switchyard/action/<id>`:
 * with JavaScript, a JSON body `{"args":[…]}` (or, when an argument is a FormData, that form with
 * the other arguments in its `$args` field) and the header `x-switchyard-action`; without it, the
 * browser posts the form itself. The answer to a script is JSON; a plain form post gets a 303.
 */
import type { SignalData } from './router-signals.js';

export const ACTION_PATH = '/_switchyard/action/';
/** Sent by the client runtime: its absence marks a browser's own form post (no JavaScript). */
export const ACTION_HEADER = 'x-switchyard-action';
/** In a form body: the JSON arguments, with `{ "$form": true }` where the form itself goes. */
export const ARGS_FIELD = '$args';
/** In a progressive form: the JSON arguments bound before the form's (e.g. `useActionState`'s state). */
export const BOUND_FIELD = '$bound';
export const FORM_PLACEHOLDER = { $form: true } as const;
/**
 * An empty hidden input React writes into a progressive form. React writes a form's extra
 * fields (`$bound`) only after a named input of this kind, so it must have a name.
 */
export const REFERENCE_FIELD = '$SY_ACTION';

export function actionUrl(id: string): string {
  return ACTION_PATH + encodeURIComponent(id);
}

/**
 * A path whose data an action changed (`revalidatePath`): `page`, that path with any search;
 * `layout`, that path and every path below it.
 */
export interface Revalidated {
  path: string;
  type: 'page' | 'layout';
}

/** What an action call answers a script. */
export type ActionAnswer =
  | { value: unknown; revalidated: Revalidated[] }
  | { signal: SignalData; revalidated: Revalidated[] }
  | { error: 'server'; digest: string };
