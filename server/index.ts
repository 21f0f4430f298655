/**
 * `switchyard/server`: server-only helpers for app code, and `createApp` for embedding.
 */
export { createApp, type SwitchyardApp } from './create-app';
export { revalidatePath } from './actions/revalidate';
export { callerAddress } from './actions/action-caller';
export { RetryLater } from './http/retry-later';
export type { SwitchyardOptions } from './options';
