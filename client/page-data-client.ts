/**
 * The client half of the page-data protocol (shared/page-data.ts): reading an answer, and
 * filling in the layout data the server left out because the client holds it.
 */
import { PAGE_DATA_TYPE, type PageDataResponse } from '../shared/page-data';
import type { PageState } from '../shared/page-state';

/** Anything but a JSON page state (a 5xx, a proxy's HTML page) is a failed fetch. */
export async function readPageData(response: Response): Promise<PageDataResponse> {
  if (response.status >= 500) throw new Error(`page data answered ${response.status}`);
  const type = response.headers.get('content-type');
  if (!type?.startsWith(PAGE_DATA_TYPE)) throw new Error(`page data came as ${type ?? 'nothing'}`);
  return (await response.json()) as PageDataResponse;
}

/**
 * The full state from an answer: segments marked `reuseLayoutData` take their data from the
 * same segment of `held`. With nothing to take it from, the answer cannot be used.
 */
export function mergeState(held: PageState | undefined, data: PageDataResponse): PageState {
  const { status: _status, ...state } = data;
  state.segments = state.segments.map((segment, i) => {
    if (!segment.reuseLayoutData) return segment;
    const mine = held?.segments[i];
    if (!mine || mine.dir !== segment.dir) throw new Error(`no layout data held for "${segment.dir}"`);
    const { reuseLayoutData: _reuse, ...rest } = segment;
    return mine.layoutData === undefined ? rest : { ...rest, layoutData: mine.layoutData };
  });
  return state;
}
