/**
 * What a `"use server"` export is outside its own module. In the browser it is a
 * function that calls the server; on the server it is the real function. On both sides it carries
 * `$$FORM_ACTION`, which React reads to render `<form action={fn}>` as a real form that posts to
 * the action without JavaScript, and a `bind` that keeps it (what `useActionState` uses).
 */
import { actionUrl, BOUND_FIELD, REFERENCE_FIELD } from '../shared/actions.js';
import { callServer } from './call-server.js';

type AnyFunction = (...args: never[]) => unknown;

export interface ServerReference {
  $$id: string;
  $$bound: unknown[];
  /** Whether a no-JS post's form state belongs to this reference (React's `useActionState` asks). */
  $$IS_SIGNATURE_EQUAL: (id: string, arity: number) => boolean;
  $$FORM_ACTION: () => {
    name: string;
    action: string;
    method: 'POST';
    encType: string;
    data: FormData | null;
  };
}

function withFormAction<F extends AnyFunction>(fn: F, id: string, bound: unknown[]): F & ServerReference {
  const reference = fn as F & ServerReference;
  reference.$$id = id;
  reference.$$bound = bound;
  reference.$$IS_SIGNATURE_EQUAL = (otherId, arity) => otherId === id && arity === bound.length;
  reference.$$FORM_ACTION = () => {
    let data: FormData | null = null;
    if (bound.length > 0) {
      data = new FormData();
      data.set(BOUND_FIELD, JSON.stringify(bound));
    }
    return {
      name: REFERENCE_FIELD,
      action: actionUrl(id),
      method: 'POST',
      encType: 'application/x-www-form-urlencoded',
      data,
    };
  };
  // Arguments bound here go first, as with Function.prototype.bind; `this` never matters.
  Object.defineProperty(reference, 'bind', {
    value: (_this: unknown, ...more: unknown[]) =>
      withFormAction(
        ((...args: never[]) =>
          (fn as unknown as (...a: unknown[]) => unknown)(...more, ...args)) as AnyFunction,
        id,
        [...bound, ...more],
      ),
  });
  return reference;
}

/** The browser's stand-in for a server function: the Vite plugin writes one call per export. */
export function createServerReference(
  id: string,
): ((...args: unknown[]) => Promise<unknown>) & ServerReference {
  return withFormAction((...args: unknown[]) => callServer(id, args), id, []);
}

/** On the server: marks a real server function so React can render forms that post to it. */
export function registerServerReference(fn: unknown, id: string): void {
  if (typeof fn === 'function') withFormAction(fn as AnyFunction, id, []);
}
