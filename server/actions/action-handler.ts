/**
 * The server-action endpoint: `POST /_switchyard/action/<id>`. In order: the origin
 * check (403), the id (404: own entries only), the body (413 past 1 MiB, read only then), the
 * arguments (400/415), then the action. A script gets JSON; a browser's own form post (no
 * JavaScript) gets a 303: to a redirect's target, or back to the page the form was on, which a
 * `useActionState` form's page renders with what the action returned (server/render/form-state.ts);
 * when that is too large for a cookie, the page itself answers the post.
 */
import type { Request, RequestHandler, Response } from 'express';
import {
  ACTION_HEADER,
  ARGS_FIELD,
  BOUND_FIELD,
  FORM_PLACEHOLDER,
  REFERENCE_FIELD,
  type ActionAnswer,
  type Revalidated,
} from '../../shared/actions.js';
import { checkRedirectTarget } from '../../shared/redirect-target.js';
import { isRedirect, isRouterSignal, signalData, type RouterSignal } from '../../shared/router-signals.js';
import { decodeActionArgs, type ArgBudget } from './action-args.js';
import { checkActionOrigin, ownOrigin, parseOrigin } from './action-guard.js';
import { createActionRegistry } from './action-registry.js';
import { digestOf } from '../http/digest.js';
import {
  noStore,
  sendErrorPage,
  sendRefusedRedirect,
  sendRetryLater,
  sendServerError,
  sendText,
} from '../http/answers.js';
import type { FormState, FormStateStore } from '../render/form-state.js';
import { HttpError } from '../http/http-error.js';
import type { ResolvedOptions } from '../options.js';
import { runAsCaller } from './action-caller.js';
import { clientKey, createRateLimiter } from './rate-limit.js';
import { readBody } from './read-body.js';
import { clientAddress, type TrustProxy } from '../http/request-url.js';
import { isRetryLater, RetryLater } from '../http/retry-later.js';
import { runRevalidating } from './revalidate.js';

/**
 * An export of a `'use server'` module that is no function when loaded: the build refuses the
 * plain cases (`export const LIMIT = 5`), and this catches what it could not judge.
 */
class NotAnAction extends Error {}

/** What an id that names no action gets, a constant's among them: a 404 that tells nothing more. */
const NO_SUCH_ACTION = 'no such server action.';

/**
 * @param routeOf the route pattern of a path on this site: an error report names the page the
 *   action was called from, as render and load errors name theirs.
 * @param renderPage answers this request with the document at `path` (a path on this site).
 */
export function createActionHandler(
  options: ResolvedOptions,
  routeOf: (path: string) => string | null,
  formStates: FormStateStore,
  renderPage: (req: Request, res: Response, path: string) => Promise<void>,
): RequestHandler {
  const registry = createActionRegistry();
  for (const [id, load] of Object.entries(options.actions)) {
    registry.register(id, async (...args: unknown[]) => {
      const action = await load();
      if (typeof action !== 'function') throw new NotAnAction(`${exportName(id)} is not a function`);
      return (action as (...a: unknown[]) => unknown)(...args);
    });
  }

  const limit = options.actionRateLimit;
  const limiter = limit && createRateLimiter(limit);

  return async function handleAction(req: Request, res: Response): Promise<void> {
    const id = String(req.params.id);
    // Named by its export, never by what was sent: an unknown id is one name, not one per guess.
    options.tracer.nameRequest('POST', 'action', () =>
      registry.lookupAction(id) ? `action:${exportName(id)}` : 'action:(unknown)',
    );
    noStore(res);
    const script = req.headers[ACTION_HEADER] !== undefined;
    const refused = checkActionOrigin(req, options.actionOrigins);
    if (refused) return sendText(res, refused.status, refused.message);
    const action = registry.lookupAction(String(req.params.id));
    if (!action) {
      // In development the app changes under the server: say so where its author looks.
      if (options.mode === 'development')
        options.logger.error(
          `[switchyard] no server action ${String(req.params.id)} (is its module 'use server'?)`,
        );
      return sendText(res, 404, NO_SUCH_ACTION);
    }
    const caller = clientKey(clientAddress(req, options.actionOrigins.trustProxy));
    // Counted before the body is read: a client over its limit costs no more than its headers.
    const wait = limiter ? limiter.take(caller, options.now()) : 0;
    if (limit && wait > 0) {
      res.setHeader('connection', 'close');
      const message = `at most ${limit.max} actions per ${limit.windowMs / 1000} s from one client; try again in ${wait} s.`;
      return sendRetryLater(res, new RetryLater(429, wait, message));
    }

    let args: unknown[];
    let postback: Postback | undefined;
    try {
      ({ args, postback } = await decodeArgs(req));
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      // After a 413 the rest of the body is not read; closing is cheaper than draining it.
      if (error.status === 413) res.setHeader('connection', 'close');
      return sendText(res, error.status, error.message);
    }

    const changed = new Map<string, Revalidated>();
    let result: unknown;
    try {
      result = await runAsCaller(caller, () =>
        runRevalidating(changed, () =>
          options.tracer.span('action', exportName(id), async () => action(...args)),
        ),
      );
    } catch (error) {
      if (error instanceof NotAnAction) {
        // Whoever posts to it learns what an unknown id tells: nothing to report, nothing to log.
        if (options.mode === 'development')
          options.logger.error(
            `[switchyard] ${error.message}: a 'use server' module exports async functions only`,
          );
        return sendText(res, 404, NO_SUCH_ACTION);
      }
      if (isRouterSignal(error)) return answerSignal(req, res, script, error, [...changed.values()]);
      if (isRetryLater(error)) return sendRetryLater(res, error);
      const digest = digestOf(error);
      options.logger.error(`[switchyard] action ${String(req.params.id)} failed, digest ${digest}`, error);
      options.reporter.report(error, {
        route: routeOf(backTo(req, options.actionOrigins.trustProxy)),
        digest,
        source: 'action',
      });
      if (script) return sendServerError(res, digest);
      return sendErrorPage(res, digest);
    }
    if (script) {
      const answer: ActionAnswer = { value: result ?? null, revalidated: [...changed.values()] };
      return void res.status(200).json(answer);
    }
    const back = backTo(req, options.actionOrigins.trustProxy);
    if (postback) {
      const state: FormState = [result ?? null, postback.key, postback.id, postback.arity];
      if (!formStates.keep(req, res, back, state)) {
        // Too large to travel in a cookie: the page is the post's answer, as in Next.js.
        formStates.hold(req, state);
        return renderPage(req, res, back);
      }
    }
    res.redirect(303, back);
  };

  function answerSignal(
    req: Request,
    res: Response,
    script: boolean,
    signal: RouterSignal,
    revalidated: Revalidated[],
  ): void {
    let data = signalData(signal);
    if (isRedirect(signal)) {
      const location = checkRedirectTarget(signal.location, options.allowedRedirectOrigins);
      if (location === null) return sendRefusedRedirect(res);
      data = { ...data, location } as typeof data;
      if (!script) return void res.redirect(303, location);
    }
    if (script) return void res.status(200).json({ signal: data, revalidated } satisfies ActionAnswer);
    sendText(res, 404, 'the action said not found.');
  }
}

/**
 * What React needs to render a `useActionState` form with the state a no-JS post returned
 * (its `formState`): the hook's key, and the action's id and arity of its own bound arguments.
 */
interface Postback {
  key: string;
  id: string;
  arity: number;
}

/**
 * The arguments: as sent by the client runtime, or a plain form post's fields after its bound
 * ones; for a `useActionState` form posted without JavaScript, also its postback key.
 */
async function decodeArgs(req: Request): Promise<{ args: unknown[]; postback?: Postback }> {
  const contentType = req.headers['content-type'];
  // One cap for the request: its fields, `$args` and `$bound` cannot each hold the whole of it.
  const budget: ArgBudget = { entries: 0 };
  const args = await decodeActionArgs(contentType, await readBody(req), budget);
  const form = args[0];
  if (!(form instanceof FormData)) return { args };
  const json = (field: string) => {
    const text = form.get(field);
    form.delete(field);
    return typeof text === 'string'
      ? decodeActionArgs('application/json', Buffer.from(`{"args":${text}}`), budget)
      : undefined;
  };
  const sent = await json(ARGS_FIELD);
  const bound = (await json(BOUND_FIELD)) ?? [];
  // React adds these to progressive forms; they are not the app's fields.
  const key = form.get(ACTION_KEY_FIELD);
  form.delete(ACTION_KEY_FIELD);
  form.delete(REFERENCE_FIELD);
  if (sent) return { args: sent.map((arg) => (isPlaceholder(arg) ? form : arg)) };
  // useActionState binds the previous state first: the action's own bound arguments follow it.
  const postback =
    typeof key === 'string' && bound.length > 0
      ? { key, id: String(req.params.id), arity: bound.length - 1 }
      : undefined;
  return { args: [...bound, form], ...(postback ? { postback } : {}) };
}

/** The name an action id ends with: `c0ffee123456#addComment` is `addComment`. */
function exportName(id: string): string {
  return id.slice(id.indexOf('#') + 1);
}

/** The hidden field in which React names the `useActionState` hook a progressive form belongs to. */
const ACTION_KEY_FIELD = '$ACTION_KEY';

function isPlaceholder(arg: unknown): boolean {
  return typeof arg === 'object' && arg !== null && (arg as typeof FORM_PLACEHOLDER).$form === true;
}

/**
 * Where a plain form post goes back to: the page it came from, if that is one of ours. "Ours" is
 * the origin check's own origin, so behind a proxy that keeps the port only in
 * `X-Forwarded-Host` a post still goes back to its page.
 */
function backTo(req: Request, trustProxy: TrustProxy): string {
  const referer = req.headers.referer;
  if (!referer || parseOrigin(referer) !== ownOrigin(req, trustProxy)) return '/';
  const url = new URL(referer);
  return checkRedirectTarget(url.pathname + url.search) ?? '/';
}
