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
} from '../shared/page-data';
import { filesOf, segmentKey, toSearchParams } from '../shared/page-state';
import { dirOf } from '../shared/route-tree';
import { isRouterSignal } from '../shared/router-signals';
import { serializeForScript } from '../shared/serialize-for-script';
import { Assets } from '../client/assets';
import { RouterRoot } from '../client/router-root';
import { createStaticRouter } from '../client/static-router';

import { digestOf } from './digest';
import { errorDocument } from './error-document';
import type { RenderOutcome, ResolvedOptions } from './options';
import { resolveIntercepted, resolveNotFound, resolvePage, type ResolvedPage } from './resolve-page';
import type { RouteRuntime } from './route-runtime';
import { contentSecurityPolicy } from './security-headers';

/** Live counts, for tests and health checks: both are zero when the server is idle. */
export interface RenderStats {
  activeRenders: number;
  pendingDeadlines: number;
}

export function createDocumentHandler(runtime: RouteRuntime, options: ResolvedOptions, stats: RenderStats) {
  const { logger, observer } = options;

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

    const fail = (error: unknown) => {
      if (outcome === 'completed') outcome = 'failed';
      const digest = digestOf(error);
      logger.error(`[switchyard] ${req.method} ${url.pathname} failed, digest ${digest}`, error);
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      res.status(500).setHeader('cache-control', 'no-store');
      if (from !== null) res.json({ error: 'server', digest } satisfies PageDataError);
      else res.type('html').send(errorDocument(digest));
    };

    let page: ResolvedPage;
    const fromMatch = from === null ? undefined : matchUrl(runtime, from);
    try {
      const pageRequest = {
        url: url.pathname + url.search,
        searchParams: toSearchParams(url.searchParams),
        buildId: options.buildId,
        request: () => toWebRequest(req, url, controller.signal),
        cutAtLoading: mode === 'auto',
      };
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
      const match = matchRoute(runtime.tree, segments);
      page = match
        ? await resolvePage(runtime, match, pageRequest, segments)
        : await resolveNotFound(runtime, [{ dir: '', files: rootFiles(runtime) }], undefined, pageRequest);
    } catch (error) {
      if (!controller.signal.aborted) fail(error);
      return;
    }
    if (controller.signal.aborted) return;
    if (from !== null) {
      sendPageData(res, page, fromMatch, mode as DataMode | null);
      return;
    }

    const assets = runtime.assetsFor(filesOf(page.state));
    const nonce = options.mode === 'production' ? randomBytes(16).toString('base64') : undefined;
    const element = (
      <RouterRoot
        router={createStaticRouter(page.state, page.components)}
        head={<Assets scripts={assets.scripts} styles={assets.styles} />}
      />
    );

    const stream = renderToPipeableStream(element, {
      bootstrapScriptContent: `self.__SWITCHYARD__=${serializeForScript(page.state)}`,
      bootstrapModules: [...runtime.bootstrap],
      ...(nonce ? { nonce } : {}),
      onShellReady() {
        if (res.destroyed) return;
        res.status(page.status);
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.setHeader('cache-control', 'no-store');
        if (nonce) res.setHeader('content-security-policy', contentSecurityPolicy(nonce));
        stream.pipe(res);
      },
      onShellError(error) {
        // After a disconnect there is no one to answer; after the deadline the 500 page is the answer.
        if (!res.headersSent && !res.destroyed) fail(error);
      },
      onError(error) {
        if (isRouterSignal(error) || controller.signal.aborted) return undefined;
        const digest = digestOf(error);
        logger.error(`[switchyard] ${req.method} ${url.pathname} render error, digest ${digest}`, error);
        return digest;
      },
    });
    render.abort = stream.abort;
    if (controller.signal.aborted) stream.abort(controller.signal.reason);
  };
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
