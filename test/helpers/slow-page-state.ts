import type { PageState } from '../../shared/page-state';

/** The state of a two-segment page (`/lab/slow` under a root layout), with its streamed places. */
export function slowPageState(streamed?: string[]): PageState {
  return {
    buildId: 'b',
    url: '/lab/slow',
    pattern: '/lab/slow',
    params: {},
    searchParams: {},
    segments: [
      { dir: '', files: {}, layoutData: { site: 'x' } },
      { dir: 'lab/slow', files: { page: 'lab/slow/page.tsx' } },
    ],
    ...(streamed ? { streamed } : {}),
  };
}
