/**
 * The document request: match, load, then stream `renderToPipeableStream` (SPEC S1–S4).
 * Status and headers go out at `onShellReady`; Suspense boundaries stream after. A client that
 * goes away aborts the render, also before the shell; the deadline aborts a render that runs
 * too long. Every render, timer and abort listener ends with its response.
 */
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { renderToPipeableStream } from 'react-dom/server';
import { decodePathname, matchRoute } from '../shared/match-route';
import { toSearchParams } from '../shared/page-state';
import { isRouterSignal } from '../shared/router-signals';
import { serializeForScript } from '../shared/serialize-for-script';
import { Assets } from '../client/assets';
import { renderRoute } from '../client/render-route';
import { digestOf } from './digest';
import { errorDocument } from './error-document';
import type { RenderOutcome, ResolvedOptions } from './options';
import { resolveNotFound, resolvePage, type ResolvedPage } from './resolve-page';
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
      res.status(500).type('html').setHeader('cache-control', 'no-store').send(errorDocument(digest));
    };

    let page: ResolvedPage;
    try {
      const pageRequest = {
        searchParams: toSearchParams(url.searchParams),
        buildId: options.buildId,
        request: () => toWebRequest(req, url, controller.signal),
      };
      const match = matchRoute(runtime.tree, segments);
      page = match
        ? await resolvePage(runtime, match, pageRequest)
        : await resolveNotFound(runtime, [{ dir: '', files: rootFiles(runtime) }], undefined, pageRequest);
    } catch (error) {
      if (!controller.signal.aborted) fail(error);
      return;
    }
    if (controller.signal.aborted) return;

    const files = page.state.segments.flatMap((s) => Object.values(s.files));
    if (page.state.notFound) files.push(page.state.notFound);
    const assets = runtime.assetsFor(files);
    const nonce = options.mode === 'production' ? randomBytes(16).toString('base64') : undefined;
    const element = renderRoute(
      page.state,
      page.components,
      <Assets scripts={assets.scripts} styles={assets.styles} />,
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
