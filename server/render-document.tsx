/**
 * The document request: match, load, then stream `renderToPipeableStream` (SPEC S1–S4).
 * Status and headers go out at `onShellReady`; Suspense boundaries stream after. A client that
 * goes away aborts the render, also before the shell; the deadline aborts a render that runs
 * too long. Every render, timer and abort listener ends with its response.
 */
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { renderToPipeableStream } from 'react-dom/server';
import { matchInterception } from '../shared/intercept';
import { decodePathname, matchRoute, type RouteMatch } from '../shared/match-route';
import {
  isDataMode,
  PAGE_DATA_PARAM,
  PREFETCH_PARAM,
  type DataMode,
  type InterceptedAnswer,
  type PageDataError,
  type PageDataResponse,
  type RedirectAnswer,
} from '../shared/page-data';
import { filesOf, segmentKey, toSearchParams, type PageState } from '../shared/page-state';
import { dirOf } from '../shared/route-tree';
import { checkRedirectTarget } from '../shared/redirect-target';
import {
  isNotFound,
  isRedirect,
  isRouterSignal,
  signalData,
  type RedirectSignal,
  type RouterSignal,
} from '../shared/router-signals';
import { STREAM_GLOBAL, streamedPlaces, type StreamedPayload } from '../shared/streamed-data';
import { sentryConfigScript } from '../shared/sentry-browser-config';
import { serializeForScript } from '../shared/serialize-for-script';
import { Assets } from '../client/assets';
import { RouterRoot } from '../client/router-root';
import { createStaticRouter } from '../client/static-router';

import { digestOf } from './digest';
import { errorDocument } from './error-document';
import type { ErrorContext } from './error-reporter';
import { HtmlInjector, inlineScript } from './html-injector';
import type { RenderOutcome, ResolvedOptions } from './options';
import {
  resolveIntercepted,
  resolveNotFound,
  resolvePage,
  type PageRequest,
  type ResolvedPage,
} from './resolve-page';
import type { RouteRuntime } from './route-runtime';
import { contentSecurityPolicy } from './security-headers';

/** Live counts, for tests and health checks: both are zero when the server is idle. */
export interface RenderStats {
  activeRenders: number;
  pendingDeadlines: number;
}

export function createDocumentHandler(runtime: RouteRuntime, options: ResolvedOptions, stats: RenderStats) {
  const { logger, observer, reporter } = options;
  const { dsn, tunnelPath, environment, release } = options.sentry;
  // Only with a DSN: the browser loads the Sentry SDK when it finds this (SPEC M2, P2).
  const sentryScript = dsn
    ? `;${sentryConfigScript({ dsn, tunnel: tunnelPath, release, ...(environment ? { environment } : {}) })}`
    : '';

  return async function renderDocument(req: Request, res: Response): Promise<void> {
    const url = new URL(req.originalUrl, 'http://localhost');
    // A page-data request is this same request with another answer (see shared/page-data.ts).
    const from = url.searchParams.get(PAGE_DATA_PARAM);
    const mode = url.searchParams.get(PREFETCH_PARAM);
    url.searchParams.delete(PAGE_DATA_PARAM);
    url.searchParams.delete(PREFETCH_PARAM);
    if (mode !== null && (from === null || !isDataMode(mode))) {
      res
        .status(400)
        .type('text/plain')
        .send(`Bad Request: ${PREFETCH_PARAM} must be one of auto, full, rest, with ${PAGE_DATA_PARAM}.`);
      return;
    }
    const segments = decodePathname(url.pathname);
    if (!segments) {
      res.status(400).type('text/plain').send('Bad Request: the URL path has a malformed percent-encoding.');
      return;
    }

    stats.activeRenders++;
    stats.pendingDeadlines++;
    const controller = new AbortController();
    let outcome: RenderOutcome = 'completed';
    // Set once React starts: before that, aborting the controller is enough.
    const render: { abort?: (reason: unknown) => void } = {};
    const stop = (why: RenderOutcome) => {
      if (outcome === 'completed') outcome = why;
      controller.abort(new Error(`render ${why}`));
      render.abort?.(new Error(`render ${why}`));
    };
    const deadline = setTimeout(() => stop('timeout'), options.renderDeadlineMs);
    res.on('close', () => {
      clearTimeout(deadline);
      stats.pendingDeadlines--;
      if (!res.writableFinished) stop('aborted');
      stats.activeRenders--;
      observer.renderEnded?.(outcome);
    });

    // React calls onError and then onShellError with one error: it is logged and reported once.
    const recorded = new Set<unknown>();
    const record = (error: unknown, source: ErrorContext['source'], what: string): string => {
      const digest = digestOf(error);
      if (recorded.has(error)) return digest;
      recorded.add(error);
      logger.error(`[switchyard] ${req.method} ${url.pathname} ${what}, digest ${digest}`, error);
      reporter.report(error, { route: matchRoute(runtime.tree, segments)?.pattern ?? null, digest, source });
      return digest;
    };

    const fail = (error: unknown, source: ErrorContext['source'] = 'load') => {
      if (outcome === 'completed') outcome = 'failed';
      const digest = record(error, source, 'failed');
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      res.status(500).setHeader('cache-control', 'no-store');
      if (from !== null) res.json({ error: 'server', digest } satisfies PageDataError);
      else res.type('html').send(errorDocument(digest));
    };

    let page: ResolvedPage;
    let match: RouteMatch | undefined;
    const fromMatch = from === null ? undefined : matchUrl(runtime, from);
    let webRequest: globalThis.Request | undefined;
    const pageRequest: PageRequest = {
      url: url.pathname + url.search,
      searchParams: toSearchParams(url.searchParams),
      buildId: options.buildId,
      request: () => (webRequest ??= toWebRequest(req, url, controller.signal)),
      cutAtLoading: mode === 'auto',
      streamBelowLoading: from === null,
    };
    try {
      // Only a soft navigation (or its prefetch) from inside the owner's scope intercepts (I3).
      const interception =
        mode === 'rest' ? undefined : matchInterception(runtime.tree, segments, fromMatch?.branch);
      const intercepted =
        interception && (await resolveIntercepted(runtime, interception, pageRequest, segments));
      if (intercepted && interception) {
        if (controller.signal.aborted) return;
        const { owner, slot } = interception.interception;
        const body: InterceptedAnswer = {
          buildId: options.buildId,
          url: pageRequest.url,
          status: 200,
          intercept: { at: dirOf(owner), slot, state: intercepted.slot },
        };
        res.status(200).setHeader('cache-control', 'no-store').json(body);
        return;
      }
      match = matchRoute(runtime.tree, segments);
      page = match
        ? await resolvePage(runtime, match, pageRequest, segments)
        : await resolveNotFound(runtime, [{ dir: '', files: rootFiles(runtime) }], undefined, pageRequest);
    } catch (error) {
      if (controller.signal.aborted) return;
      if (isRedirect(error)) sendRedirect(error);
      else fail(error);
      return;
    }
    if (controller.signal.aborted) return;
    if (from !== null) {
      sendPageData(res, page, fromMatch, mode as DataMode | null);
      return;
    }
    streamPage(page, true);

    /**
     * A redirect before anything was sent (SPEC S2, E2): 307 or 308 with `Location`, or for page
     * data an answer the client router follows. A target that fails the check is a 400.
     */
    function sendRedirect(signal: RedirectSignal): void {
      const location = checkRedirectTarget(signal.location, options.allowedRedirectOrigins);
      res.setHeader('cache-control', 'no-store');
      if (location === null) {
        res
          .status(400)
          .type('text/plain')
          .send('Bad Request: the redirect target is not a path on this site.');
      } else if (from !== null) {
        const body: RedirectAnswer = {
          buildId: options.buildId,
          url: pageRequest.url,
          status: 200,
          redirect: { location, status: signal.status },
        };
        res.status(200).json(body);
      } else {
        res.status(signal.status).location(location).type('text/plain').send(`Redirecting to ${location}`);
      }
    }

    /**
     * Streams a page. A signal thrown while the shell renders decides the status, as one from a
     * loader does; one thrown later, inside a Suspense boundary, can only add a meta tag.
     */
    function streamPage(page: ResolvedPage, mayRetry: boolean): void {
      const assets = runtime.assetsFor(filesOf(page.state));
      const nonce = options.mode === 'production' ? randomBytes(16).toString('base64') : undefined;
      const out = new HtmlInjector(res);
      let early: RouterSignal | undefined;
      const element = (
        <RouterRoot
          router={createStaticRouter(page.state, page.components)}
          head={<Assets scripts={assets.scripts} styles={assets.styles} />}
        />
      );
      const stream = renderToPipeableStream(element, {
        bootstrapScriptContent: `self.__SWITCHYARD__=${serializeForScript(page.state)}${sentryScript}`,
        bootstrapModules: [...runtime.bootstrap],
        ...(nonce ? { nonce } : {}),
        onShellReady() {
          if (res.destroyed) return;
          if (early && isRedirect(early)) {
            stream.abort(early);
            sendRedirect(early);
            return;
          }
          res.status(early ? 404 : page.status);
          res.setHeader('content-type', 'text/html; charset=utf-8');
          res.setHeader('cache-control', 'no-store');
          if (nonce) res.setHeader('content-security-policy', contentSecurityPolicy(nonce));
          stream.pipe(out);
        },
        onShellError(error) {
          // After a disconnect there is no one to answer; after the deadline the 500 page is the answer.
          if (res.headersSent || res.destroyed) return;
          if (isRedirect(error)) sendRedirect(error);
          else if (isNotFound(error) && mayRetry) {
            // A component said not found outside any Suspense boundary: the not-found page instead.
            resolveNotFound(runtime, page.state.segments, match, pageRequest).then(
              (notFound) => streamPage(notFound, false),
              fail,
            );
          } else fail(error, 'render');
        },
        onError(error) {
          if (isRouterSignal(error)) {
            if (res.headersSent) out.inject(signalMeta(error));
            else early ??= error;
            return undefined;
          }
          if (controller.signal.aborted) return undefined;
          return record(error, isStreamedLoadError(page.state, error) ? 'load' : 'render', 'render error');
        },
      });
      render.abort = stream.abort;
      if (controller.signal.aborted) stream.abort(controller.signal.reason);
      // The browser is told a digest for data the deadline cut off: the log must have it too.
      streamData(page.state, out, nonce, controller.signal, (digest) => {
        if (outcome === 'timeout')
          logger.error(`[switchyard] ${req.method} ${url.pathname} render deadline passed, digest ${digest}`);
      });
    }

    /** The meta tag a signal adds after the shell: noindex, or a refresh the client router follows. */
    function signalMeta(signal: RouterSignal): string {
      if (signal.kind === 'not-found') return '<meta name="robots" content="noindex">';
      const location = checkRedirectTarget(signal.location, options.allowedRedirectOrigins);
      if (location === null) {
        logger.error(
          `[switchyard] ${url.pathname}: refused redirect target ${JSON.stringify(signal.location)}`,
        );
        return '';
      }
      const delay = signal.status === 308 ? 0 : 1;
      return `<meta http-equiv="refresh" content="${delay};url=${escapeAttribute(location)}">`;
    }
  };
}

/**
 * Sends each streamed place's outcome as a script the client entry reads (SPEC E5), as soon as
 * its loader settles: the data, a router signal, or the digest of an error (never the error).
 * A render cut short (deadline, S3) settles what is left as an error, so that no browser waits
 * on data that will never come.
 */
function streamData(
  state: PageState,
  out: HtmlInjector,
  nonce: string | undefined,
  cut: AbortSignal,
  onCut: (digest: string) => void,
): void {
  for (const { id, data } of streamedPlaces(state)) {
    let sent = false;
    const send = (payload: StreamedPayload) => {
      if (sent) return;
      sent = true;
      out.inject(
        inlineScript(`(self.${STREAM_GLOBAL}||=[]).push(${serializeForScript([id, payload])})`, nonce),
      );
    };
    const fail = (error: unknown) =>
      send(isRouterSignal(error) ? { signal: signalData(error) } : { digest: digestOf(error) });
    // Settled already (a fast loader): sent now, so it waits for the shell rather than for a
    // callback that could run after React has ended the response.
    if (data.status === 'fulfilled') send({ value: data.value });
    else if (data.status === 'rejected') fail(data.reason);
    else data.then((value) => send({ value }), fail);
    cut.addEventListener(
      'abort',
      () => {
        if (sent) return;
        const digest = digestOf(cut.reason);
        onCut(digest);
        send({ digest });
      },
      { once: true },
    );
  }
}

/** A streamed loader's rejection reaches React when `Await` reads it: it is a load error. */
function isStreamedLoadError(state: PageState, error: unknown): boolean {
  return streamedPlaces(state).some(({ data }) => data.status === 'rejected' && data.reason === error);
}

function escapeAttribute(text: string): string {
  return text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Answers a page-data request with the page state as JSON, leaving out the layout data the
 * client holds: a segment it shares with the page it comes from (same node, same params), or,
 * for `rest`, the segments down to the loading state it shows.
 */
function sendPageData(
  res: Response,
  page: ResolvedPage,
  fromMatch: RouteMatch | undefined,
  mode: DataMode | null,
): void {
  const { state } = page;
  const held = new Set<string>();
  if (mode === 'rest') {
    // The client shows this page's loading state: it holds the segments down to that one.
    const cut = state.segments.findIndex((s) => s.files.loading);
    state.segments.slice(0, cut + 1).forEach((s) => held.add(segmentKey(s.dir, state.params)));
  } else if (mode === null) {
    fromMatch?.branch.forEach((_, i) =>
      held.add(segmentKey(dirOf(fromMatch.branch.slice(0, i + 1)), fromMatch.params)),
    );
  }
  // Prefetches (auto, full) are answered whole: the entry may be used from any page later.
  const body: PageDataResponse = {
    ...state,
    status: page.status,
    segments: state.segments.map((segment) => {
      if (!held.has(segmentKey(segment.dir, state.params))) return segment;
      const { layoutData: _held, ...rest } = segment;
      return { ...rest, reuseLayoutData: true };
    }),
  };
  res.status(page.status).setHeader('cache-control', 'no-store').json(body);
}

/** The route of the page a client says it comes from (a path it may have made up). */
function matchUrl(runtime: RouteRuntime, from: string): RouteMatch | undefined {
  const segments = from.startsWith('/') ? decodePathname(from.split(/[?#]/)[0]!) : undefined;
  return segments && matchRoute(runtime.tree, segments);
}

function rootFiles(runtime: RouteRuntime) {
  const { page: _page, ...files } = Object.fromEntries(
    Object.entries(runtime.tree.files).filter(([role]) => !role.endsWith('.server')),
  );
  return files;
}

function toWebRequest(req: Request, url: URL, signal: AbortSignal): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  const origin = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  return new globalThis.Request(new URL(url.pathname + url.search, origin), {
    method: req.method,
    headers,
    signal,
  });
}
