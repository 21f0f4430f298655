/**
 * `switchyard/server`: server-only helpers for app code, and `createApp` for embedding.
 */
export { createApp, type SwitchyardApp } from './create-app.js';
export { revalidatePath } from './actions/revalidate.js';
export { callerAddress } from './actions/action-caller.js';
export { RetryLater } from './http/retry-later.js';
export type { SwitchyardOptions } from './options.js';
export type { RouteContext, RouteHandler } from './handlers/route-handlers.js';
export {
  cookies,
  headers,
  setHeader,
  setStatus,
  type Cookies,
  type Cookie,
  type CookieOptions,
  type DeleteCookieOptions,
} from './request/request-api.js';
export type { Middleware, MiddlewareContext } from './request/middleware.js';
