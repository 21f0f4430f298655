/**
 * The browser half of streamed loader data: the document's streamed scripts push
 * `[id, payload]` pairs onto `self.__SY_S`, before or after this runs. Each settles the promise
 * the page state holds in that place; React's `use()` in the tree is waiting on it. Head tags
 * that come with the data are the page's from then on (`streamedHead`).
 */
import type { PageState } from '../shared/page-state.js';
import { serverError } from '../shared/error-messages.js';
import { toSignal } from '../shared/router-signals.js';
import { awaitStreamed, STREAM_GLOBAL, type StreamedPayload } from '../shared/streamed-data.js';

type Pushed = [id: string, payload: StreamedPayload];

export function receiveStreamed(state: PageState, scope: Record<string, unknown>): void {
  const settlers = awaitStreamed(state);
  const settle = ([id, payload]: Pushed) => {
    const place = settlers.get(id);
    if (!place) return;
    settlers.delete(id);
    if ('value' in payload) {
      // Before the data: the head renders again when its place settles.
      if (payload.head) state.streamedHead = payload.head;
      place.resolve(payload.value);
    } else if ('signal' in payload) place.reject(toSignal(payload.signal));
    else place.reject(serverError(payload.digest));
  };
  const early = (scope[STREAM_GLOBAL] as Pushed[] | undefined) ?? [];
  early.forEach(settle);
  scope[STREAM_GLOBAL] = { push: settle };
}
