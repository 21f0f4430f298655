/**
 * `switchyard/server`: server-only helpers for app code, and `createApp` for embedding.
 */
export { createApp, type SwitchyardApp } from './create-app';
export { revalidatePath } from './revalidate';
export { RetryLater } from './retry-later';
export type { SwitchyardOptions } from './options';
