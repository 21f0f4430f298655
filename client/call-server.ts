/**
 * Calls a server action from the browser: one POST, then what the answer says —
 * the return value; a redirect, as a navigation (pushed); `revalidatePath`, as the
 * current page's data fetched again and only the matching prefetch entries dropped; a
 * server error, thrown with its digest only. The router is handed in by the client entry.
 */
import {
  actionUrl,
  ACTION_HEADER,
  ARGS_FIELD,
  FORM_PLACEHOLDER,
  type ActionAnswer,
} from '../shared/actions.js';
import { serverError } from '../shared/error-messages.js';
import { checkRedirectTarget } from '../shared/redirect-target.js';
import { toSignal } from '../shared/router-signals.js';
import type { Router } from './router.js';

let router: Router | undefined;

/** Set once by the client entry: actions need the router to navigate and revalidate. */
export function connectActions(to: Router): void {
  router = to;
}

/** A FormData argument is sent as the form itself, so files and repeated fields survive. */
function encode(args: unknown[]): { body: BodyInit; headers: Record<string, string> } {
  const form = args.find((arg): arg is FormData => arg instanceof FormData);
  if (!form) return { body: JSON.stringify({ args }), headers: { 'content-type': 'application/json' } };
  const body = new FormData();
  form.forEach((value, key) => body.append(key, value));
  body.set(ARGS_FIELD, JSON.stringify(args.map((arg) => (arg === form ? FORM_PLACEHOLDER : arg))));
  return { body, headers: {} };
}

export function callServer(id: string, args: unknown[]): Promise<unknown> {
  return callAction(id, args, { fetch: (url, init) => fetch(url, init), router });
}

/** Where an action call goes: the page's `fetch` and router, or a test's. */
export interface ActionTransport {
  fetch(url: string, init: RequestInit): Promise<Response>;
  router: Pick<Router, 'revalidate' | 'invalidate' | 'navigate'> | undefined;
}

export async function callAction(
  id: string,
  args: unknown[],
  { fetch, router }: ActionTransport,
): Promise<unknown> {
  const { body, headers } = encode(args);
  const response = await fetch(actionUrl(id), {
    method: 'POST',
    body,
    headers: { ...headers, accept: 'application/json', [ACTION_HEADER]: '1' },
  });
  if (!response.headers.get('content-type')?.startsWith('application/json')) {
    throw new Error(`switchyard: the action answered ${response.status} ${await response.text()}`);
  }
  const answer = (await response.json()) as ActionAnswer;
  if ('error' in answer) throw serverError(answer.digest);
  if ('value' in answer) {
    if (answer.revalidated.length > 0) await router?.revalidate(answer.revalidated);
    return answer.value;
  }
  // Leaving (or showing not-found): the changed paths' entries go, with no refetch of this page.
  answer.revalidated.forEach(({ path, type }) => router?.invalidate(path, type));
  if (answer.signal.kind === 'redirect') {
    const { location } = answer.signal;
    // A path is followed softly. The server let another origin through only if the app allows
    // it, a list this bundle does not carry: that origin is taken as allowed, and the shared
    // check still refuses other schemes, credentials and hidden characters.
    const origin = URL.canParse(location) ? new URL(location).origin : undefined;
    const target = checkRedirectTarget(location, origin ? [origin] : []);
    if (target === null) throw new Error(`switchyard: refused to redirect to ${location}`);
    await router?.navigate(target);
    return undefined;
  }
  throw toSignal(answer.signal);
}
