import type { PageState } from '../shared/page-state';

declare global {
  interface Window {
    /** The state the server rendered the page with (see server/render-document.tsx). */
    __SWITCHYARD__?: PageState;
  }
}
