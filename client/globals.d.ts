import type { PageState } from '../shared/page-state';
import type { BrowserSentryConfig } from '../shared/sentry-browser-config';

declare global {
  interface Window {
    /** The state the server rendered the page with (see server/render-document.tsx). */
    __SWITCHYARD__?: PageState;
    /** Set with a Sentry DSN only (shared/sentry-browser-config.ts). */
    __SWITCHYARD_SENTRY__?: BrowserSentryConfig;
  }
}
