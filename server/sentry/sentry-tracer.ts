/**
 * The request tracer for Sentry. The Node SDK's HTTP integration starts each request's
 * transaction (and continues the trace of incoming `sentry-trace` and `baggage` headers); this
 * names it by route and hangs the router's work below it. The SDK is passed in, already
 * initialised by `server/instrument.mjs`, so that the server never loads it when tracing is off.
 */
import type * as SentryNode from '@sentry/node';
import type { RequestTracer, WorkKind } from './request-tracer.js';

export type TracingApi = Pick<
  typeof SentryNode,
  'getActiveSpan' | 'getRootSpan' | 'updateSpanName' | 'startSpan' | 'startInactiveSpan' | 'getTraceData'
>;

/** Span operations, as Sentry groups them in its trace view. */
const OPS: Record<WorkKind, string> = {
  load: 'function.switchyard.load',
  middleware: 'middleware.switchyard',
  action: 'function.switchyard.action',
  handler: 'function.switchyard.handler',
  render: 'ui.render.switchyard',
  stream: 'ui.render.switchyard.stream',
};
const ORIGIN = 'auto.http.switchyard';
/** The name of a request no route matched: one name for every such path, never the path. */
const NO_ROUTE = '(no route)';

/**
 * @example createApp({ …, tracer: sentryTracer(await import('@sentry/node')) })
 */
export function sentryTracer(sentry: TracingApi): RequestTracer {
  const attributes = (kind: WorkKind) => ({ 'sentry.op': OPS[kind], 'sentry.origin': ORIGIN });
  return {
    nameRequest(method, kind, route) {
      const active = sentry.getActiveSpan();
      if (!active) return; // an untraced request: HEAD, OPTIONS, or not sampled
      const root = sentry.getRootSpan(active);
      const pattern = route();
      const name = `${method} ${pattern ?? NO_ROUTE}`;
      sentry.updateSpanName(root, name);
      root.setAttributes({
        // A route, not a URL: Sentry groups by it and keeps it whatever the sample.
        'sentry.segment.name.source': 'route',
        'switchyard.request': kind,
        ...(pattern !== null && kind !== 'action' ? { 'http.route': pattern } : {}),
      });
    },
    span(kind, subject, work) {
      return sentry.startSpan({ name: `${kind} ${subject}`, attributes: attributes(kind) }, work);
    },
    start(kind, subject) {
      const span = sentry.startInactiveSpan({ name: `${kind} ${subject}`, attributes: attributes(kind) });
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        span.end();
      };
    },
    traceData() {
      if (!sentry.getActiveSpan()) return undefined;
      const { 'sentry-trace': sentryTrace, baggage } = sentry.getTraceData();
      return sentryTrace && baggage ? { sentryTrace, baggage } : undefined;
    },
  };
}
