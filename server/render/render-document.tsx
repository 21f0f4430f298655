/**
 * The document request: match, load, then stream `renderToPipeableStream`.
 * Status and headers go out at `onShellReady`; Suspense boundaries stream after. A client that
 * goes away aborts the render, also before the shell; the deadline aborts a render that runs
 * too long, and one that has sent nothing by then answers 503 at once, whatever its loaders do
 * later. Every render, timer and abort listener ends with its response.
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { ReactFormState } from 'react-dom/client';
import { renderToPipeableStream } from 'react-dom/server';
import type { HeadTag } from '../../shared/head.js';
import { matchInterception } from '../../shared/intercept.js';
import { decodePathname, matchRoute, type RouteMatch } from '../../shared/match-route.js';
import {
  isDataMode,
  PAGE_DATA_PARAM,
  PREFETCH_PARAM,
  WHOLE_PARAM,
  type DataMode,
  type InterceptedAnswer,
} from '../../shared/page-data.js';
import { toSearchParams } from '../../shared/page-state.js';
import { COMPONENT_FILES, dirOf } from '../../shared/route-tree.js';
import { checkRedirectTarget } from '../../shared/redirect-target.js';
import {
  isNotFound,
  isRedirect,
  isRouterSignal,
  type RedirectSignal,
  type RouterSignal,
} from '../../shared/router-signals.js';
import { sentryConfigScript } from '../../shared/sentry-browser-config.js';
import { serializeForScript } from '../../shared/serialize-for-script.js';
import { Assets } from '../../client/assets.js';
import { RouterRoot } from '../../client/router-root.js';
import { createStaticRouter } from '../../client/static-router.js';

import { digestOf } from '../http/digest.js';
import {
  addVary,
  cachePage,
  neverStore,
  sendErrorPage,
  sendRefusedPage,
  sendRedirectTo,
  sendRefusedRedirect,
  sendRetryLater,
  sendServerError,
  sendText,
} from '../http/answers.js';
import { HttpError } from '../http/http-error.js';
import type { ErrorContext } from '../sentry/error-reporter.js';
import { negotiateEncoding, sendJson } from '../http/compression.js';
import type { FormStateStore } from './form-state.js';
import { encodeSegments, loaderFile, pageStateScript, type LoaderFileOf } from './encode-data.js';
import { HtmlInjector } from './html-injector.js';
import { matchUrl, sendPageData, sendRedirectData } from './page-data-answer.js';
import { isStreamedLoadError, signalMetaTag, streamData } from './streamed-html.js';
import { exportsHead, pageHead } from './page-head.js';
import type { RenderOutcome, ResolvedOptions } from '../options.js';
import {
  resolveIntercepted,
  resolveNotFound,
  resolvePage,
  PageRequest,
  type ResolvedPage,
} from './resolve-page.js';
import type { RouteRuntime } from './route-runtime.js';
import { parseRequestTarget, type RequestTarget } from '../http/request-url.js';
import { isRetryLater, RetryLater } from '../http/retry-later.js';
import { RENDER_DEADLINE_RETRY_AFTER_S } from '../../shared/constants.js';
import { contentSecurityPolicy, dropDocumentHeaders } from '../http/security-headers.js';
import { commitAnswer, pageStatus } from '../request/request-scope.js';
import { toWebRequest } from '../http/web-response.js';
import { RenderStop } from './render-stop.js';

export const TOO_SLOW_MESSAGE = 'This page took too long to prepare; try again in a moment.';

/** Live counts, for tests and health checks: both are zero when the server is idle. */
export interface RenderStats {
  activeRenders: number;
  pendingDeadlines: number;
}

export function createDocumentHandler(
  runtime: RouteRuntime,
  options: ResolvedOptions,
  stats: RenderStats,
  formStates: FormStateStore,
) {
  const { logger, observer, reporter, tracer } = options;
  const { dsn, tunnelPath, environment, release, tracesSampleRate } = options.sentry;
  const browserSentry = dsn && {
    dsn,
    tunnel: tunnelPath,
    release,
    ...(environment ? { environment } : {}),
    // Absent at 0, so that the browser never loads its tracing code.
    ...(tracesSampleRate > 0 ? { tracesSampleRate } : {}),
  };
  // Only with a DSN: the browser loads the Sentry SDK when it finds this.
  const sentryScript = browserSentry ? `;${sentryConfigScript(browserSentry)}` : '';
  /** With the request traced, the config also carries its trace, for the browser to continue. */
  const sentryScriptOf = (): string => {
    const trace = browserSentry && tracer.traceData();
    return trace ? `;${sentryConfigScript({ ...browserSentry, trace })}` : sentryScript;
  };
  // Only asked on the way to a message: which file's `load` returned data that cannot be sent.
  const fileOf: LoaderFileOf = (dir, kind) => loaderFile(runtime.tree, dir, kind);
  // Development also refuses symbol keys, which production leaves out as JSON does (isPlainJson).
  const strict = options.mode === 'development';

  return async function renderDocument(req: Request, res: Response): Promise<void> {
    const read = readPageRequest(req.originalUrl);
    if (typeof read === 'string') return sendText(res, 400, read);
    const { url, from, mode, whole, segments } = read;
    // A POST here is a no-JS action's answer: its transaction keeps the action's name.
    if (req.method !== 'POST') {
      tracer.nameRequest(
        req.method,
        from === null ? 'document' : 'page-data',
        () => matchRoute(runtime.tree, segments)?.pattern ?? null,
      );
    }
    if (from !== null) dropDocumentHeaders(res);

    stats.activeRenders++;
    stats.pendingDeadlines++;
    const stopper = new RenderStop();
    let outcome: RenderOutcome = 'completed';
    // Set once React starts: before that, stopping the stopper is enough.
    let abortRender: ((reason: unknown) => void) | undefined;
    const stop = (why: RenderOutcome) => {
      if (outcome === 'completed') outcome = why;
      stopper.stop(new Error(`render ${why}`));
      abortRender?.(new Error(`render ${why}`));
    };
    /**
     * Set once the document's status and headers are decided and its stream is piped: from then
     * on nothing else may answer, although `res.headersSent` stays false until the compressor's
     * first bytes reach the socket (a moment, or longer while zlib's thread pool is busy).
     */
    let committed = false;
    const answered = () => committed || res.headersSent;
    const deadline = setTimeout(() => {
      if (!answered() && !res.destroyed) answerTooSlow();
      stop('timeout');
    }, options.renderDeadlineMs);
    /** The document's writer, once its page streams: the response's close reaches it from here. */
    let injector: HtmlInjector | undefined;
    res.on('close', () => {
      clearTimeout(deadline);
      stats.pendingDeadlines--;
      if (!res.writableFinished) stop('aborted');
      stats.activeRenders--;
      observer.renderEnded?.(outcome);
      // The response's listeners may outlive it a while (see HtmlInjector): they must not hold the render.
      abortRender = undefined;
      injector?.closed();
    });

    // React calls onError and then onShellError with one error: it is logged and reported once.
    // Made with the first error: most requests have none.
    let recorded: Set<unknown> | undefined;
    const record = (error: unknown, source: ErrorContext['source'], what: string): string => {
      const digest = digestOf(error);
      if (recorded?.has(error)) return digest;
      (recorded ??= new Set()).add(error);
      logger.error(`[switchyard] ${req.method} ${url.pathname} ${what}, digest ${digest}`, error);
      reporter.report(error, { route: matchRoute(runtime.tree, segments)?.pattern ?? null, digest, source });
      return digest;
    };

    const fail = (error: unknown, source: ErrorContext['source'] = 'load') => {
      if (isRetryLater(error) && !answered()) return sendRetryLater(res, error);
      if (outcome === 'completed') outcome = 'failed';
      const digest = record(error, source, 'failed');
      if (answered() || res.destroyed) {
        res.destroy();
        return;
      }
      if (from !== null) sendServerError(res, digest);
      else sendErrorPage(res, digest, options.mode === 'development' ? error : undefined);
    };

    /**
     * The deadline passed with nothing sent (loaders still running, or a shell still suspended):
     * "too slow now, try again", as a loader's `RetryLater` is answered, for a document and for
     * page data alike. Logged once with its route; not reported: a slow database or service is
     * load, not a bug, and under it every request would be a report.
     */
    const answerTooSlow = (): void => {
      const route = matchRoute(runtime.tree, segments)?.pattern ?? 'no route';
      logger.error(
        `[switchyard] ${req.method} ${url.pathname} (${route}): nothing to send after the render deadline ` +
          `of ${options.renderDeadlineMs} ms; answered 503`,
      );
      fail(new RetryLater(503, RENDER_DEADLINE_RETRY_AFTER_S, TOO_SLOW_MESSAGE));
    };

    let page: ResolvedPage;
    let match: RouteMatch | undefined;
    const fromMatch = from === null ? undefined : matchUrl(runtime, from);
    let webRequest: globalThis.Request | undefined;
    const pageRequest = new PageRequest({
      url: url.pathname + url.search,
      searchParams: toSearchParams(url.search === '' ? [] : url.searchParams),
      buildId: options.buildId,
      request: () => (webRequest ??= loaderRequest(req, url, stopper.signal())),
      cutAtLoading: mode === 'auto',
      streamBelowLoading: from === null,
      keepsUnmatchedSlots: from !== null,
      onLoadError: (error) => record(error, 'load', 'load failed'),
      tracer,
    });
    try {
      // Only a soft navigation (or its prefetch) from inside the owner's scope intercepts.
      const interception = mode === 'rest' ? undefined : matchInterception(runtime.tree, segments, fromMatch);
      const intercepted =
        interception && (await resolveIntercepted(runtime, interception, pageRequest, segments));
      if (intercepted && interception) {
        if (stopper.stopped) return;
        const { owner, slot } = interception.interception;
        const body: InterceptedAnswer = {
          buildId: options.buildId,
          url: pageRequest.url,
          status: 200,
          intercept: {
            at: dirOf(owner),
            slot,
            state: {
              ...intercepted.slot,
              segments: encodeSegments(intercepted.slot.segments, fileOf, strict),
            },
          },
        };
        // As for any page data: the status its loaders set, the caching of a page that renders.
        sendJson(cachePage(res, 200).status(pageStatus(res, 200)), body);
        return;
      }
      match = matchRoute(runtime.tree, segments);
      page = match
        ? await resolvePage(runtime, match, pageRequest, segments)
        : await resolveNotFound(runtime, [{ dir: '', files: rootFiles(runtime) }], undefined, pageRequest);
    } catch (error) {
      if (stopper.stopped) return;
      if (isRedirect(error)) sendRedirect(error);
      // Search params the page's schema rejects: page data gets plain text, which the client
      // router answers by loading the URL as a document, which is this page.
      else if (error instanceof HttpError && from !== null) sendText(res, error.status, error.message);
      else if (error instanceof HttpError) sendRefusedPage(res, error.status, error.message);
      else fail(error);
      return;
    }
    if (stopper.stopped) return;
    if (from !== null) {
      // Asked whole, nothing is trimmed: the client does not trust the layout data it holds.
      try {
        sendPageData(
          res,
          page,
          whole === null ? fromMatch : undefined,
          mode as DataMode | null,
          fileOf,
          strict,
        );
      } catch (error) {
        fail(error); // data that cannot be sent
      }
      return;
    }
    // The page a no-JS form post came back to: its form shows what the action returned.
    const formState = req.method !== 'HEAD' ? formStates.take(req, res, pageRequest.url) : undefined;
    streamPage(page, true);

    /**
     * A redirect before anything was sent: 307 or 308 with `Location`, or for page
     * data an answer the client router follows. A target that fails the check is a 400.
     */
    function sendRedirect(signal: RedirectSignal): void {
      const location = checkRedirectTarget(signal.location, options.allowedRedirectOrigins);
      neverStore(res);
      if (location === null) {
        sendRefusedRedirect(res);
      } else if (from !== null) {
        sendRedirectData(res, options.buildId, pageRequest.url, location, signal.status);
      } else {
        // Answering a form's post (a state too large for a cookie), a 307 or 308 would have the
        // browser post the form again to the target: 303 makes it a GET.
        sendRedirectTo(res, req.method === 'POST' ? 303 : signal.status, location);
      }
    }

    /**
     * Streams a page. A signal thrown while the shell renders decides the status, as one from a
     * loader does; one thrown later, inside a Suspense boundary, can only add a meta tag.
     */
    function streamPage(page: ResolvedPage, mayRetry: boolean): void {
      let stateScript: string;
      try {
        stateScript = pageStateScript(page.state, fileOf, strict);
      } catch (error) {
        fail(error); // data that cannot be sent, before anything renders
        return;
      }
      // The page's modules are its state's files (`filesOf`), loaded in that order.
      const assets = runtime.assetsFor(page.modules.keys());
      // From Node's pool of random UUIDs: unguessable, and no entropy call per request.
      const nonce = options.mode === 'production' ? randomUUID() : undefined;
      const out = new HtmlInjector(res);
      injector = out;
      let early: RouterSignal | undefined;
      const element = (
        <RouterRoot
          router={createStaticRouter(page.state, page.modules)}
          assets={<Assets scripts={assets.scripts} styles={assets.styles} />}
        />
      );
      const formScript = formState ? `;self.__SWITCHYARD_FORM__=${serializeForScript(formState)}` : '';
      /** The nearest not-found page in this one's place, streamed once (it cannot retry). */
      const showNotFound = () =>
        void resolveNotFound(runtime, page.state.segments, match, pageRequest).then(
          (notFound) => streamPage(notFound, false),
          fail,
        );
      // The render to the shell; what streams after it has spans of its own.
      const shellReady = tracer.start('render', page.state.pattern ?? '(no route)');
      const stream = renderToPipeableStream(element, {
        bootstrapScriptContent: `self.__SWITCHYARD__=${stateScript}${formScript}${sentryScriptOf()}`,
        ...(formState ? { formState: formState as unknown as ReactFormState } : {}),
        bootstrapModules: [...runtime.bootstrap],
        ...(nonce ? { nonce } : {}),
        onShellReady() {
          shellReady();
          if (res.destroyed) return;
          if (early && isRedirect(early)) {
            stream.abort(early);
            sendRedirect(early);
            return;
          }
          if (early && mayRetry) {
            // A loader below a `loading.tsx` said not found before the shell went out: answer as
            // one above it does, with the not-found page. Its shell would hold only the loading
            // state, which nothing fills in a browser without JavaScript.
            stream.abort(early);
            showNotFound();
            return;
          }
          // Node's own setter rather than Express's `res.status()` (9 µs of every document in
          // profiles): the status is one this server chose.
          res.statusCode = early ? 404 : pageStatus(res, page.status);
          res.setHeader('content-type', 'text/html; charset=utf-8');
          cachePage(res, early ? 404 : page.status);
          addVary(res, 'accept-encoding');
          if (nonce) res.setHeader('content-security-policy', contentSecurityPolicy(nonce));
          commitAnswer(res);
          committed = true;
          out.pipeFrom(stream, negotiateEncoding(req.headers['accept-encoding']));
        },
        onShellError(error) {
          shellReady();
          // After a disconnect there is no one to answer; after the deadline the 503 was the answer.
          if (answered() || res.destroyed) return;
          if (isRedirect(error)) sendRedirect(error);
          else if (isNotFound(error) && mayRetry) {
            // A component said not found outside any Suspense boundary: the not-found page instead.
            showNotFound();
          } else fail(error, 'render');
        },
        onError(error) {
          if (isRouterSignal(error)) {
            if (answered()) out.inject(signalMeta(error));
            else early ??= error;
            return undefined;
          }
          if (stopper.stopped) return undefined;
          return record(error, isStreamedLoadError(page.state, error) ? 'load' : 'render', 'render error');
        },
      });
      abortRender = stream.abort;
      if (stopper.stopped) stream.abort(stopper.reason);
      // The browser is told a digest for data the deadline cut off: the log must have it too.
      streamData(page.state, out, {
        nonce,
        cut: stopper,
        onCut(digest) {
          if (outcome === 'timeout')
            logger.error(
              `[switchyard] ${req.method} ${url.pathname} render deadline passed, digest ${digest}`,
            );
        },
        fileOf,
        strict,
        onUnsendable: (error) => record(error, 'load', 'load failed'),
        startPlace: (id) => tracer.start('stream', id),
        // Read only as streamed data arrives, and only a branch with a `head` export can change.
        ...(exportsHead(page.modules) ? { headChange: headChangeOf(page) } : {}),
      });
    }

    /**
     * The page's head tags as its streamed data arrives, when they change: the browser renders
     * them once it has hydrated. A head that fails on that data is the render's error, logged
     * and reported; the page keeps the head it has.
     */
    function headChangeOf({ state, modules }: ResolvedPage): () => HeadTag[] | undefined {
      let sent: string | undefined;
      return () => {
        sent ??= JSON.stringify(state.head ?? []);
        let head: HeadTag[];
        try {
          head = pageHead(state, modules, true);
        } catch (error) {
          record(error, 'render', 'head failed');
          return undefined;
        }
        const json = JSON.stringify(head);
        if (json === sent) return undefined;
        sent = json;
        return head;
      };
    }

    /** The meta tag a signal adds after the shell; a refused redirect target adds none. */
    function signalMeta(signal: RouterSignal): string {
      const meta = signalMetaTag(signal, options.allowedRedirectOrigins);
      if (meta === null && signal.kind === 'redirect') {
        logger.error(
          `[switchyard] ${url.pathname}: refused redirect target ${JSON.stringify(signal.location)}`,
        );
      }
      return meta ?? '';
    }
  };
}

/**
 * What a page request asks, read from its target, or what is wrong with it (a 400's message).
 * A page-data request is the same request with another answer (see shared/page-data.ts): its
 * parameters are taken off the URL the page knows itself by.
 */
interface PageRequestTarget {
  url: RequestTarget;
  from: string | null;
  mode: string | null;
  whole: string | null;
  segments: string[];
}

function readPageRequest(target: string): string | PageRequestTarget {
  const url = parseRequestTarget(target);
  if (!url) return 'the request target is not a path.';
  const segments = decodePathname(url.pathname);
  if (!segments) return 'the URL path has a malformed percent-encoding.';
  // Most documents carry no query: their URL's search params are then never made.
  if (url.search === '') return { url, from: null, mode: null, whole: null, segments };
  const from = url.searchParams.get(PAGE_DATA_PARAM);
  const mode = url.searchParams.get(PREFETCH_PARAM);
  const whole = url.searchParams.get(WHOLE_PARAM);
  url.searchParams.delete(PAGE_DATA_PARAM);
  url.searchParams.delete(PREFETCH_PARAM);
  url.searchParams.delete(WHOLE_PARAM);
  if (mode !== null && (from === null || !isDataMode(mode))) {
    return `${PREFETCH_PARAM} must be one of auto, full, rest, with ${PAGE_DATA_PARAM}.`;
  }
  if (whole !== null && (from === null || whole !== '1'))
    return `${WHOLE_PARAM} must be 1, with ${PAGE_DATA_PARAM}.`;
  return { url, from, mode, whole, segments };
}

const COMPONENT_ROLES: ReadonlySet<string> = new Set(COMPONENT_FILES);

function rootFiles(runtime: RouteRuntime) {
  const { page: _page, ...files } = Object.fromEntries(
    Object.entries(runtime.tree.files).filter(([role]) => COMPONENT_ROLES.has(role)),
  );
  return files;
}

/**
 * The `request` a loader reads. Its signal is made for it (`RenderStop.signal`) and aborts when
 * the render stops: undici keeps the signal a `Request` is given alive (through a
 * FinalizationRegistry) until the `Request` itself is collected, so that signal must not reach,
 * through listeners of its own, the response and this very `Request` — a cycle the registry
 * would never let go of, one response per page.
 */
function loaderRequest(req: Request, url: RequestTarget, signal: AbortSignal): globalThis.Request {
  return toWebRequest(req, url, `${req.protocol}://${req.get('host') ?? 'localhost'}`, signal);
}
