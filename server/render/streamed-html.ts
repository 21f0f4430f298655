/**
 * What the server writes into a streaming document besides React's HTML: a script
 * per streamed place with its outcome, and the meta tag a signal thrown after the shell adds.
 * Both go through the `HtmlInjector`, between two of React's write batches.
 */
import { checkRedirectTarget } from '../../shared/redirect-target.js';
import type { HeadTag } from '../../shared/head.js';
import type { PageState } from '../../shared/page-state.js';
import { isRouterSignal, signalData, type RouterSignal } from '../../shared/router-signals.js';
import { serializeForScript } from '../../shared/serialize-for-script.js';
import { STREAM_GLOBAL, streamedPlaces, type StreamedPayload } from '../../shared/streamed-data.js';
import { digestOf } from '../http/digest.js';
import { dataScript, type LoaderFileOf } from './encode-data.js';
import { inlineScript, type HtmlInjector } from './html-injector.js';
import type { RenderStop } from './render-stop.js';

export interface StreamOptions {
  nonce: string | undefined;
  /** Stopped when the render is cut short. */
  cut: RenderStop;
  /** Told the digest the browser gets for data the cut left unsent. */
  onCut: (digest: string) => void;
  fileOf: LoaderFileOf;
  /** Development's stricter data check (see isPlainJson). */
  strict: boolean;
  /** Logs and reports data that cannot be sent (`UnsendableDataError`); answers its digest. */
  onUnsendable: (error: unknown) => string;
  /** Told each place as the shell goes out; what it returns is called once its outcome is sent. */
  startPlace?: (id: string) => () => void;
  /** The page's head tags with the data that has arrived, when they changed since last asked. */
  headChange?: () => HeadTag[] | undefined;
}

/**
 * Sends each streamed place's outcome as a script the client entry reads, as soon as
 * its loader settles: the data (with the page's head tags, when that data changes them), a
 * router signal, or the digest of an error (never the error).
 * Data that cannot be sent settles its place as an error. A render cut short (deadline, S3)
 * settles what is left as an error, so that no browser waits on data that will never come.
 */
export function streamData(state: PageState, out: HtmlInjector, options: StreamOptions): void {
  // Most pages stream nothing: the server's state lists every place it left a promise in.
  if (state.streamed === undefined) return;
  const { nonce, cut, onCut, fileOf, strict, onUnsendable, startPlace, headChange } = options;
  for (const { id, kind, dir, data } of streamedPlaces(state)) {
    let sent = false;
    const placeSent = startPlace?.(id);
    const push = (pair: string) => {
      sent = true;
      placeSent?.();
      out.inject(inlineScript(`(self.${STREAM_GLOBAL}||=[]).push(${pair})`, nonce));
    };
    const send = (payload: StreamedPayload) => {
      if (!sent) push(serializeForScript([id, payload]));
    };
    const fail = (error: unknown) =>
      send(isRouterSignal(error) ? { signal: signalData(error) } : { digest: digestOf(error) });
    const sendValue = (value: unknown) => {
      if (sent) return;
      let script: string;
      try {
        script = dataScript(value, fileOf(dir, kind), strict);
      } catch (error) {
        return send({ digest: onUnsendable(error) });
      }
      const head = headChange?.();
      const headPart = head ? `,"head":${serializeForScript(head)}` : '';
      push(`[${serializeForScript(id)},{"value":${script}${headPart}}]`);
    };
    // Settled already (a fast loader): sent now, so it waits for the shell rather than for a
    // callback that could run after React has ended the response.
    if (data.status === 'fulfilled') sendValue(data.value);
    else if (data.status === 'rejected') fail(data.reason);
    else data.then(sendValue, fail);
    cut.onStop((reason) => {
      if (sent) return;
      const digest = digestOf(reason);
      onCut(digest);
      send({ digest });
    });
  }
}

/** A streamed loader's rejection reaches React when `Await` reads it: it is a load error. */
export function isStreamedLoadError(state: PageState, error: unknown): boolean {
  return streamedPlaces(state).some(({ data }) => data.status === 'rejected' && data.reason === error);
}

/**
 * `noindex` for a not-found, a refresh for a redirect (delay 0 for 308, 1 for 307, which the
 * client router beats to it); `null` for a redirect target that fails the check.
 */
export function signalMetaTag(signal: RouterSignal, allowedOrigins: readonly string[]): string | null {
  if (signal.kind === 'not-found') return '<meta name="robots" content="noindex">';
  const location = checkRedirectTarget(signal.location, allowedOrigins);
  if (location === null) return null;
  const delay = signal.status === 308 ? 0 : 1;
  return `<meta http-equiv="refresh" content="${delay};url=${escapeAttribute(location)}">`;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}
