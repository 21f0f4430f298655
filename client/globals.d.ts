import type { ReactFormState } from 'react-dom/client';
import type { PageState } from '../shared/page-state.js';
import type { BrowserSentryConfig } from '../shared/sentry-browser-config.js';

declare global {
  interface Window {
    /** The state the server rendered the page with (see server/render/render-document.tsx). */
    __SWITCHYARD__?: PageState;
    /** Set with a Sentry DSN only (shared/sentry-browser-config.ts). */
    __SWITCHYARD_SENTRY__?: BrowserSentryConfig;
    /** What a no-JS form post returned, for the page it came back to (see server/render/form-state.ts). */
    __SWITCHYARD_FORM__?: ReactFormState;
  }
}
