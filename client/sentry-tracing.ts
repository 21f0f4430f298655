/**
 * Browser tracing, in a chunk of its own that `sentry-browser.ts` imports only when the document's
 * Sentry config has a traces rate: without one, none of this code loads. The page load continues
 * the trace of the server request that rendered the document; each navigation is a trace of its
 * own, named by its route pattern, with the router's phases as child spans. Trace headers go to
 * paths on this origin only, and spans keep route patterns where a URL held a path.
 */
import {
  browserTracingIntegration,
  startBrowserTracingNavigationSpan,
  startBrowserTracingPageLoadSpan,
  startInactiveSpan,
  type BrowserOptions,
  type getClient,
  type Span,
} from '@sentry/react';
import { decodePathname, matchRoute } from '../shared/match-route.js';
import { assembleRouteTree } from '../shared/route-tree.js';
import type { BrowserSentryConfig } from '../shared/sentry-browser-config.js';
import { withoutQuery } from '../shared/sentry-privacy.js';
import type { PageState } from '../shared/page-state.js';
import type { NavigationDetails, NavigationPhaseName, Router } from './router-types.js';

/** What the page hands the SDK for tracing. */
export interface TracedPage {
  /** The document's state: its `pattern` names the page load (`null`: no route matched). */
  state: Pick<PageState, 'pattern'>;
  /** The route modules by file: their names tell the client which route a URL matches. */
  importers: Readonly<Record<string, unknown>>;
  router: Pick<Router, 'onNavigation'>;
}

type Client = NonNullable<ReturnType<typeof getClient>>;

/** The name of a page or request no route matches: one name for all, never the path. */
const NO_ROUTE = '(no route)';

/**
 * Trace headers go only where this matches: Sentry's browser SDK tests a URL's absolute form
 * first (never a match here, as it starts with its scheme) and its path only when it is on the
 * page's own origin. A third party never learns the trace.
 */
export const TRACE_PROPAGATION_TARGETS = [/^\/(?!\/)/];

/** Each phase's span: what the navigation waited on. */
const PHASES: Record<NavigationPhaseName, string> = {
  cache: 'cache decision',
  prefetch: 'waiting on a prefetch',
  request: 'page data',
  scripts: 'route scripts',
  commit: 'commit',
};

/** Span attributes that hold a URL, kept as an origin and a route pattern. */
const URL_ATTRIBUTES = ['url', 'url.full', 'http.url'];
/** Attributes that hold a query or a fragment, or where the request came from. */
const PRIVATE_ATTRIBUTES = [
  'http.query',
  'http.fragment',
  'url.query',
  'url.fragment',
  'client.address',
  'user_agent.original',
];

/** A path's route pattern, from the route files the client knows. */
export function routePatterns(files: readonly string[]): (pathname: string) => string | null {
  const tree = assembleRouteTree(files);
  return (pathname) => {
    const segments = decodePathname(pathname);
    return (segments && matchRoute(tree, segments)?.pattern) ?? null;
  };
}

/**
 * A URL as spans may keep it: on this origin, its route's pattern (a file that no route serves,
 * such as a built script, keeps its path); elsewhere, its origin alone. Never a query.
 */
export function urlForSpan(url: string, origin: string, patternOf: (pathname: string) => string | null) {
  if (!URL.canParse(url, origin)) return withoutQuery(url);
  const parsed = new URL(url, origin);
  if (parsed.origin !== origin) return parsed.origin;
  return patternOf(parsed.pathname) ?? parsed.pathname;
}

type StreamedSpan = { name: string; attributes?: Record<string, unknown> | undefined };

/**
 * The `beforeSendSpan` of the browser: a request span is named `<method> <pattern>` (the SDK
 * names it by host alone), URLs in attributes become patterns, and no query, fragment, address
 * or user agent is kept.
 */
export function scrubBrowserSpan(origin: string, patternOf: (pathname: string) => string | null) {
  const forSpan = (url: string) => urlForSpan(url, origin, patternOf);
  return <S extends StreamedSpan>(span: S): S => {
    const given = span.attributes ?? {};
    const attributes: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(given)) {
      if (PRIVATE_ATTRIBUTES.includes(key)) continue;
      attributes[key] = URL_ATTRIBUTES.includes(key) && typeof value === 'string' ? forSpan(value) : value;
    }
    const op = given['sentry.op'];
    const method = given['http.request.method'] ?? span.name.split(' ')[0];
    const url = URL_ATTRIBUTES.map((key) => given[key]).find((value) => typeof value === 'string');
    const isRequest = typeof op === 'string' && op.startsWith('http.') && typeof url === 'string';
    return { ...span, name: isRequest ? `${String(method)} ${forSpan(url)}` : span.name, attributes };
  };
}

/** Init options that turn tracing on: the rate, the integration, where headers go, the scrub. */
export function tracingOptions(
  rate: number,
  page: TracedPage,
): Pick<BrowserOptions, 'tracesSampleRate' | 'tracePropagationTargets' | 'beforeSendSpan'> & {
  integration: ReturnType<typeof browserTracingIntegration>;
} {
  return {
    tracesSampleRate: rate,
    tracePropagationTargets: TRACE_PROPAGATION_TARGETS,
    beforeSendSpan: scrubBrowserSpan(location.origin, routePatterns(Object.keys(page.importers))),
    // The page load and navigations are started here, from the router's own events.
    integration: browserTracingIntegration({ instrumentPageLoad: false, instrumentNavigation: false }),
  };
}

/**
 * Starts the page load's span (it began when the document did, and continues the server's trace)
 * and, from then on, one span per navigation. Returns the unsubscribe.
 */
export function startTracing(client: Client, config: BrowserSentryConfig, page: TracedPage): () => void {
  const patternOf = routePatterns(Object.keys(page.importers));
  startBrowserTracingPageLoadSpan(
    client,
    { name: page.state.pattern ?? NO_ROUTE, attributes: { 'sentry.segment.name.source': 'route' } },
    config.trace ?? {},
  );
  const open = new Map<number, Span>();
  return page.router.onNavigation((event) => {
    if (event.type === 'start') {
      const url = new URL(event.url, location.href);
      const span = startBrowserTracingNavigationSpan(
        client,
        {
          name: (url.origin === location.origin && patternOf(url.pathname)) || NO_ROUTE,
          attributes: { 'sentry.segment.name.source': 'route', 'switchyard.kind': event.kind },
        },
        { url: url.href },
      );
      if (span) open.set(event.id, span);
      return;
    }
    const span = open.get(event.id);
    open.delete(event.id);
    if (!span) return;
    span.setAttribute('switchyard.outcome', event.type === 'abort' ? `aborted: ${event.reason}` : event.type);
    if (event.type === 'hard') span.setAttribute('switchyard.hard', true);
    if (event.details) describe(span, event.details);
    // Leaving for a document load: nothing of this page is to come.
    if (event.type === 'hard') span.end();
  });
}

/** What the router did, as attributes of the navigation's span and a child span per phase. */
function describe(span: Span, details: NavigationDetails): void {
  span.setAttributes({
    ...(details.entry ? { 'switchyard.entry': details.entry } : {}),
    'switchyard.loading_state': details.loadingState,
    'switchyard.requests': details.requests,
  });
  for (const phase of details.phases) {
    startInactiveSpan({
      name: PHASES[phase.name],
      parentSpan: span,
      startTime: phase.start / 1000,
      attributes: { 'sentry.op': `navigation.${phase.name}`, 'sentry.origin': 'auto.navigation.switchyard' },
    }).end(phase.end / 1000);
  }
}
