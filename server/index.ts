/**
 * `switchyard/server`: server-only helpers for app code, and `createApp` for embedding.
 */
export { createApp, type SwitchyardApp } from './create-app';
export type { SwitchyardOptions } from './options';
